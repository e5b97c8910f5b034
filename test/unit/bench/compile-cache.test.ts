import { describe, expect, it } from 'vitest';
import { writtenBetween } from '../../../bench/compile-cache.js';

describe('writtenBetween', () => {
  const before = [
    { path: 'v22-x64-tag-0/aaaa', bytes: 10, mtimeMs: 1 },
    { path: 'v22-x64-tag-0/bbbb', bytes: 20, mtimeMs: 1 },
  ];

  it('finds nothing when every entry is as it was (a read-only folder would have served the run)', () => {
    expect(writtenBetween(before, [...before].reverse())).toEqual([]);
  });

  it('names the entries a miss wrote: new, resized or rewritten', () => {
    const after = [
      { path: 'v22-x64-tag-0/aaaa', bytes: 10, mtimeMs: 2 },
      { path: 'v22-x64-tag-0/bbbb', bytes: 20, mtimeMs: 1 },
      { path: 'v22-x64-tag-0/cccc', bytes: 5, mtimeMs: 2 },
    ];
    expect(writtenBetween(before, after)).toEqual(['v22-x64-tag-0/aaaa', 'v22-x64-tag-0/cccc']);
  });
});
