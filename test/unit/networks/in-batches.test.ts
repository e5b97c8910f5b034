import { describe, expect, it } from 'vitest';
import { inBatches } from '../../../shared/networks/in-batches.js';

describe('inBatches', () => {
  it('splits the items in order into batches of the size, the last one shorter', () => {
    expect(inBatches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('gives one batch when the items fit, and exactly full batches when they divide evenly', () => {
    expect(inBatches(['a', 'b'], 20)).toEqual([['a', 'b']]);
    expect(inBatches(['a', 'b', 'c', 'd'], 2)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('gives no batch for no items, so no request is made', () => {
    expect(inBatches([], 50)).toEqual([]);
  });

  it('keeps every item once: 101 ids in batches of 100 are 100 and 1', () => {
    const ids = Array.from({ length: 101 }, (_, i) => `id${i}`);
    const batches = inBatches(ids, 100);
    expect(batches.map((batch) => batch.length)).toEqual([100, 1]);
    expect(batches.flat()).toEqual(ids);
  });

  it('leaves the list it was given unchanged', () => {
    const items = [1, 2, 3];
    inBatches(items, 1);
    expect(items).toEqual([1, 2, 3]);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a batch size of %s instead of looping for ever', (size) => {
    expect(() => inBatches([1, 2], size)).toThrow(RangeError);
  });
});
