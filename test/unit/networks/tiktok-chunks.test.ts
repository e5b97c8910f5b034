import { describe, expect, it } from 'vitest';
import { chunkRange, planChunks } from '../../../shared/networks/tiktok/limits.js';
import { PerMinuteWindow } from '../../../shared/networks/tiktok/rate-window.js';

const MB = 1024 * 1024;

describe('TikTok chunk plan (5–64 MB chunks, the last up to 128 MB, 1–1000 chunks)', () => {
  it.each([
    ['a file under 5 MB: one chunk of its size', 3 * MB, 3 * MB, 1],
    ['a file between 5 and 10 MB: one chunk of its size', 7 * MB, 7 * MB, 1],
    ['25 MB: two 10 MB chunks, the last absorbing 5 MB', 25 * MB, 10 * MB, 2],
    ['4 GB: 409 chunks of 10 MB', 4 * 1024 * MB, 10 * MB, 409],
  ])('%s', (_case, size, chunkSize, totalChunks) => {
    const plan = planChunks(size);
    expect(plan).toEqual({ chunkSize, totalChunks });
    const last = chunkRange(plan, size, plan.totalChunks - 1);
    expect(last.end).toBe(size);
    expect(last.end - last.start).toBeLessThanOrEqual(128 * MB);
    expect(plan.chunkSize).toBeLessThanOrEqual(64 * MB);
  });

  it('chunks cover the file exactly, in order', () => {
    const size = 35 * MB + 17;
    const plan = planChunks(size);
    const ranges = Array.from({ length: plan.totalChunks }, (_, i) => chunkRange(plan, size, i));
    expect(ranges[0]?.start).toBe(0);
    for (let i = 1; i < ranges.length; i += 1) expect(ranges[i]?.start).toBe(ranges[i - 1]?.end);
    expect(ranges.at(-1)?.end).toBe(size);
  });
});

describe('PerMinuteWindow', () => {
  it('lets `limit` calls a minute per account and kind, then says how long until the oldest leaves', () => {
    let now = 1_000_000;
    const window = new PerMinuteWindow(() => now);
    for (let i = 0; i < 6; i += 1) {
      expect(window.waitSeconds('acc_1', 'init', 6)).toBe(0);
      window.record('acc_1', 'init');
      now += 1_000;
    }
    expect(window.waitSeconds('acc_1', 'init', 6)).toBe(54);
    expect(window.waitSeconds('acc_2', 'init', 6)).toBe(0);
    expect(window.waitSeconds('acc_1', 'status', 30)).toBe(0);
    now += 54_000;
    expect(window.waitSeconds('acc_1', 'init', 6)).toBe(0);
  });
});
