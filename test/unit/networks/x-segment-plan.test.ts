import { describe, expect, it } from 'vitest';
import {
  mediaCategoryOf,
  segmentPlan,
  X_CHUNK_BYTES,
  X_MAX_UPLOAD_BYTES,
} from '../../../shared/networks/x/limits.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe('X APPEND segment plan (at most 1,000 segments of at most 8 MiB)', () => {
  it.each([
    ['an image of 3 MiB: one 4 MiB segment', 3 * MiB, X_CHUNK_BYTES, 1],
    ['the service’s largest video, 1 GiB: 256 segments of 4 MiB', GiB, X_CHUNK_BYTES, 256],
    ['4,000 MiB: still 1,000 segments of 4 MiB', 4000 * MiB, X_CHUNK_BYTES, 1000],
    ['6 GiB: 1,000 segments, each a thousandth of it', 6 * GiB, Math.ceil((6 * GiB) / 1000), 1000],
    ['1,000 × 8 MiB: 1,000 segments of 8 MiB', 1000 * 8 * MiB, 8 * MiB, 1000],
  ])('%s', (_case, size, segmentBytes, segments) => {
    expect(segmentPlan(size, X_CHUNK_BYTES)).toEqual({ segmentBytes, segments });
  });

  it('has no plan for a file 1,000 segments of 8 MiB cannot carry', () => {
    expect(segmentPlan(1000 * 8 * MiB + 1, X_CHUNK_BYTES)).toBeUndefined();
  });

  it('never sends a segment over 8 MiB, whatever chunk size it is configured with', () => {
    expect(segmentPlan(20 * MiB, 16 * MiB)).toEqual({ segmentBytes: 8 * MiB, segments: 3 });
  });

  it('lets a Post video reach the largest upload, past the 512 MB of X’s media overview', () => {
    expect(mediaCategoryOf('video/mp4')).toEqual({ category: 'tweet_video', maxBytes: X_MAX_UPLOAD_BYTES });
    expect(X_MAX_UPLOAD_BYTES).toBe(8_388_608_000);
    expect(mediaCategoryOf('image/gif')).toEqual({ category: 'tweet_gif', maxBytes: 15 * MiB });
    expect(mediaCategoryOf('image/webp')).toEqual({ category: 'tweet_image', maxBytes: 5 * MiB });
  });
});
