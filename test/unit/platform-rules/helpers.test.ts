import { describe, expect, it } from 'vitest';
import {
  codePointLength,
  countMedia,
  isBlank,
  partsOf,
  utf8ByteLength,
  utf16Length,
} from '../../../shared/domain/platform-rules/helpers.js';
import { aDraft, documents, images, kindFromType, unknownMedia, videos } from './drafts.js';

describe('text length helpers', () => {
  it('count code points, UTF-16 units and UTF-8 bytes differently for the same text', () => {
    // Prepare: a, é (2 bytes), 漢 (3 bytes), 🙂 (4 bytes, 2 UTF-16 units)
    const text = 'aé漢🙂';

    // Act / Assess
    expect(codePointLength(text)).toBe(4);
    expect(utf16Length(text)).toBe(5);
    expect(utf8ByteLength(text)).toBe(10);
  });

  it('treat whitespace-only text as blank', () => {
    expect(isBlank(' \n\t')).toBe(true);
    expect(isBlank(' x ')).toBe(false);
  });
});

describe('countMedia', () => {
  it('counts each kind and unknown references, all toward the total', () => {
    expect(countMedia([...images(2), ...videos(1), ...documents(1), unknownMedia()], kindFromType)).toEqual({
      total: 5,
      image: 2,
      video: 1,
      document: 1,
      unknown: 1,
    });
  });
});

describe('partsOf', () => {
  it('makes string content one part with top-level media and root field paths', () => {
    expect(partsOf(aDraft({ content: 'Hi', media: images(1) }))).toEqual([
      { text: 'Hi', media: images(1), textField: 'content', mediaField: 'media' },
    ]);
  });

  it('makes each item a part with indexed field paths, missing text and media empty', () => {
    expect(partsOf(aDraft({ content: [{ text: 'One' }, { media: videos(1) }], media: [] }))).toEqual([
      { text: 'One', media: [], textField: 'content[0].text', mediaField: 'content[0].media' },
      { text: '', media: videos(1), textField: 'content[1].text', mediaField: 'content[1].media' },
    ]);
  });
});
