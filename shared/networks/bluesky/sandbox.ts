import type { SandboxSimulation } from '../sandbox/simulation.js';
import { BLUESKY_MAX_IMAGE_BYTES, BLUESKY_MAX_VIDEO_BYTES } from './limits.js';

const TID_CHARS = '234567abcdefghijklmnopqrstuvwxyz';

/** Bluesky in the sandbox (../sandbox/simulation.ts), named as its PDS names failures (research §5). */
export const blueskySandbox: SandboxSimulation = {
  latencyMs: { min: 100, max: 400 },
  mediaSizeLimits: { image: BLUESKY_MAX_IMAGE_BYTES, video: BLUESKY_MAX_VIDEO_BYTES },
  profile: {
    rawCodes: {
      invalid: () => 'InvalidRequest',
      rejected: 'InvalidRequest',
      mediaTooLarge: 'BlobTooLarge',
      tokenRevoked: 'invalid_token',
      rateLimited: 'RateLimitExceeded',
      unavailable: '503',
    },
    rejectedMessage: 'Invalid app.bsky.feed.post record.',
  },
  postIdentity({ hash, handle }) {
    // An AT-URI with a TID record key (13 characters, the first one of 234567abcdefghij).
    const rkey = [...hash.subarray(0, 13)]
      .map((byte, i) => TID_CHARS[i === 0 ? byte % 16 : byte % 32])
      .join('');
    const did = `did:plc:${hash.subarray(13, 28).toString('hex').slice(0, 24)}`;
    const profile = handle || did;
    return {
      platformPostId: `at://${did}/app.bsky.feed.post/${rkey}`,
      platformPostUrl: `https://bsky.app/profile/${profile}/post/${rkey}`,
    };
  },
};
