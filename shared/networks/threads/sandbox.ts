import { base64Id, digits, type SandboxSimulation } from '../sandbox/simulation.js';
import { THREADS_MAX_IMAGE_BYTES, THREADS_MAX_VIDEO_BYTES } from './limits.js';

/** Threads in the sandbox (../sandbox/simulation.ts): Meta's Graph-style codes (threads.md §10). */
export const threadsSandbox: SandboxSimulation = {
  latencyMs: { min: 300, max: 1200 },
  mediaSizeLimits: { image: THREADS_MAX_IMAGE_BYTES, video: THREADS_MAX_VIDEO_BYTES },
  profile: {
    rawCodes: {
      // Graph code 100: an invalid parameter.
      invalid: () => '100',
      // Subcode 2207051: the activity was restricted to protect the community.
      rejected: '1/2207051',
      // Code 100 with subcode 2207004: the image Meta fetched is too large.
      mediaTooLarge: '100/2207004',
      tokenRevoked: '190',
      rateLimited: '9',
      unavailable: '503',
    },
    rejectedMessage: 'We restrict certain activity to protect our community.',
  },
  postIdentity({ hash, handle }) {
    // Threads media ids are 17 or 18 digits; the permalink names the account and a shortcode.
    const id = `18${digits(hash, 0, 15)}`;
    return {
      platformPostId: id,
      platformPostUrl: `https://www.threads.net/@${handle || 'threads'}/post/${base64Id(hash, 8)}`,
    };
  },
};
