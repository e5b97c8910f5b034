import { digits, type SandboxSimulation } from '../sandbox/simulation.js';
import { mediaCategoryOf, X_CATEGORY_MAX_BYTES } from './limits.js';

/** X in the sandbox (../sandbox/simulation.ts). */
export const xSandbox: SandboxSimulation = {
  latencyMs: { min: 80, max: 250 },
  // X's upload per media_category (docs/networks.md, short-message network): what the connector sends.
  mediaSizeLimits: { image: X_CATEGORY_MAX_BYTES.tweet_image, video: mediaCategoryOf('video/mp4').maxBytes },
  gifSizeLimit: X_CATEGORY_MAX_BYTES.tweet_gif,
  profile: {
    rawCodes: {
      invalid: () => '400 invalid-request',
      rejected: '403',
      mediaTooLarge: '400',
      tokenRevoked: '401',
      rateLimited: '429',
      unavailable: '503',
    },
    rejectedMessage: 'You are not allowed to create a Tweet with duplicate content.',
  },
  postIdentity({ hash, handle }) {
    // Snowflake-sized: 19 digits (e.g. 1445880548472328192).
    const id = `1${digits(hash, 0, 18)}`;
    return { platformPostId: id, platformPostUrl: `https://x.com/${handle || 'i'}/status/${id}` };
  },
};
