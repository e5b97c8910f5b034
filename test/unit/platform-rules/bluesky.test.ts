import { describe, expect, it } from 'vitest';
import { platformOptionsInput, platformOptionsViolations } from '../../../shared/domain/platform-options.js';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import type { PostDraft } from '../../../shared/domain/posts.js';
import { detectFacets } from '../../../shared/networks/bluesky/facets.js';
import { graphemeLength } from '../../../shared/networks/bluesky/limits.js';
import { isCallablePds } from '../../../shared/networks/bluesky/pds-address.js';
import { itemRkey, TID_PATTERN, tidOf } from '../../../shared/networks/bluesky/tid.js';
import { aDraft, codes, images, kindFromType, videos } from './drafts.js';

const bluesky = (overrides: Partial<PostDraft>) =>
  checkPlatformRules(
    aDraft({ platform: 'bluesky', postType: 'text', content: 'Hello', ...overrides }),
    kindFromType,
  );

describe('Bluesky text: 300 graphemes and 3,000 UTF-8 bytes', () => {
  it('counts graphemes: an emoji ZWJ sequence, a flag and a skin tone are one each', () => {
    expect(graphemeLength('👩‍👩‍👧‍👦🇫🇷👍🏽é')).toBe(4);
    // 120 graphemes of 25 bytes each: exactly the 3,000 bytes allowed.
    expect(bluesky({ content: '👩‍👩‍👧‍👦'.repeat(120) })).toEqual([]);
  });

  it('refuses 301 graphemes and over 3,000 bytes, each with its limit', () => {
    expect(bluesky({ content: 'a'.repeat(300) })).toEqual([]);
    expect(bluesky({ content: 'a'.repeat(301) })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_TOO_LONG', limit: 300 }),
    ]);
    expect(bluesky({ content: '👩‍👩‍👧‍👦'.repeat(121) })).toEqual([
      expect.objectContaining({ field: 'content', code: 'TEXT_TOO_LONG', limit: 3000 }),
    ]);
  });
});

describe('Bluesky shapes: one embed a post', () => {
  it('takes 1–4 images, or one video, never both', () => {
    expect(bluesky({ postType: 'image', content: 'Pics', media: images(4) })).toEqual([]);
    expect(codes(bluesky({ postType: 'image', content: 'Pics', media: images(5) }))).toContain(
      'TOO_MANY_MEDIA',
    );
    expect(bluesky({ postType: 'video', content: 'Clip', media: videos(1) })).toEqual([]);
    expect(codes(bluesky({ postType: 'video', content: 'Clip', media: videos(2) }))).toContain(
      'TOO_MANY_MEDIA',
    );
  });

  it('a text post needs text and carries no media', () => {
    expect(codes(bluesky({ content: '   ' }))).toEqual(['TEXT_REQUIRED']);
  });

  it('a thread: 2–25 posts, each with text or media, a video alone', () => {
    expect(
      bluesky({ postType: 'thread', content: [{ text: 'One' }, { text: 'Two', media: images(2) }] }),
    ).toEqual([]);
    expect(codes(bluesky({ postType: 'thread', content: [{ text: 'Alone' }] }))).toEqual(['TOO_FEW_ITEMS']);
    expect(
      codes(
        bluesky({
          postType: 'thread',
          content: [{ text: 'One' }, { text: 'Two', media: [...videos(1), ...images(1)] }],
        }),
      ),
    ).toEqual(['TOO_MANY_MEDIA']);
    expect(codes(bluesky({ postType: 'thread', content: [{ text: 'One' }, { text: ' ' }] }))).toEqual([
      'TEXT_REQUIRED',
    ]);
  });

  it('is not a carousel network', () => {
    expect(codes(bluesky({ postType: 'carousel', content: 'No', media: images(2) }))).toContain(
      'POST_TYPE_NOT_ALLOWED',
    );
  });
});

describe('platformOptions.bluesky', () => {
  const card = { uri: 'https://example.com/a', title: 'A', description: 'B' };

  it('takes languages and a link card on a text post', () => {
    const options = { bluesky: { langs: ['en', 'pt-BR'], linkCard: card } };
    expect(platformOptionsInput.safeParse(options).success).toBe(true);
    expect(
      platformOptionsViolations({ platform: 'bluesky', postType: 'text', platformOptions: options }),
    ).toEqual([]);
  });

  it('refuses a link card on an image post (the post embeds one thing), and more than 3 languages', () => {
    expect(
      platformOptionsViolations({
        platform: 'bluesky',
        postType: 'image',
        platformOptions: { bluesky: { linkCard: card } },
      }),
    ).toEqual([
      expect.objectContaining({
        field: 'platformOptions.bluesky.linkCard',
        code: 'PLATFORM_OPTION_NOT_ALLOWED',
      }),
    ]);
    expect(platformOptionsInput.safeParse({ bluesky: { langs: ['en', 'fr', 'de', 'es'] } }).success).toBe(
      false,
    );
    expect(
      platformOptionsInput.safeParse({ bluesky: { linkCard: { ...card, uri: 'javascript:alert(1)' } } })
        .success,
    ).toBe(false);
  });
});

describe('Bluesky facets', () => {
  const noHandles = async () => undefined;

  it('counts UTF-8 bytes, not UTF-16 units, and leaves trailing punctuation out of a link', async () => {
    const text = 'Déjà vu 🎉 https://example.com/x. #tag';
    const facets = await detectFacets(text, noHandles);
    const bytes = Buffer.from(text, 'utf8');
    expect(
      facets.map((facet) => bytes.subarray(facet.index.byteStart, facet.index.byteEnd).toString('utf8')),
    ).toEqual(['https://example.com/x', '#tag']);
  });

  it('resolves a mention to its DID, and leaves one that does not resolve as text', async () => {
    const facets = await detectFacets('@known.bsky.social and @unknown.example.org', async (handle) =>
      handle === 'known.bsky.social' ? 'did:plc:known' : undefined,
    );
    expect(facets).toEqual([
      {
        index: { byteStart: 0, byteEnd: 18 },
        features: [{ $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:known' }],
      },
    ]);
  });

  it('does not make a tag of digits only, nor of a # inside a word or a URL', async () => {
    const facets = await detectFacets('#2024 a#b https://example.com/#frag #ok', noHandles);
    expect(facets.map((facet) => facet.features[0])).toEqual([
      { $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/#frag' },
      { $type: 'app.bsky.richtext.facet#tag', tag: 'ok' },
    ]);
  });
});

describe('Bluesky record keys (TIDs)', () => {
  it('are 13 characters of base32-sortable, in time order', () => {
    expect(tidOf(0n, 0)).toBe('2222222222222');
    const earlier = tidOf(1_700_000_000_000_000n, 5);
    const later = tidOf(1_700_000_000_000_001n, 0);
    expect(earlier).toMatch(TID_PATTERN);
    expect(later > earlier).toBe(true);
  });

  it("are derived from the post: the same post's item always gets the same key, another post another", () => {
    const due = Date.parse('2026-11-27T10:00:00.000Z');
    expect(itemRkey('pst_a', due, 0)).toBe(itemRkey('pst_a', due, 0));
    expect(itemRkey('pst_a', due, 1)).not.toBe(itemRkey('pst_a', due, 0));
    expect(itemRkey('pst_b', due, 0)).not.toBe(itemRkey('pst_a', due, 0));
    expect(itemRkey('pst_a', due, 0)).toMatch(TID_PATTERN);
  });
});

describe("a PDS address from a DID document (the account holder's input)", () => {
  const PLC = 'https://plc.directory';

  it('is called only over https on a public host', () => {
    expect(isCallablePds('https://morel.us-east.host.bsky.network', PLC)).toBe(true);
    expect(isCallablePds('http://morel.us-east.host.bsky.network', PLC)).toBe(false);
    for (const internal of [
      'https://127.0.0.1',
      'https://169.254.169.254/latest',
      'https://10.0.0.7',
      'https://192.168.1.1',
      'https://[::1]',
      'https://localhost:8080',
      'https://user:pw@pds.example.com',
    ])
      expect(isCallablePds(internal, PLC), internal).toBe(false);
  });

  it('may be loopback http only where the PLC directory is itself a loopback fake', () => {
    expect(isCallablePds('http://127.0.0.1:4000', 'http://127.0.0.1:4000/plc')).toBe(true);
    expect(isCallablePds('http://127.0.0.1:4000', PLC)).toBe(false);
  });
});
