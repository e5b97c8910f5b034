import { digits, type SandboxSimulation } from '../sandbox/simulation.js';
import { FACEBOOK_MAX_IMAGE_BYTES, FACEBOOK_MAX_VIDEO_BYTES } from './limits.js';

/** Facebook Pages in the sandbox (../sandbox/simulation.ts). */
export const facebookSandbox: SandboxSimulation = {
  latencyMs: { min: 300, max: 1000 },
  // The connector's own limits (Meta's 4 MB and 10 GB), so the sandbox refuses what a Page would.
  mediaSizeLimits: { image: FACEBOOK_MAX_IMAGE_BYTES, video: FACEBOOK_MAX_VIDEO_BYTES },
  profile: {
    rawCodes: {
      // Graph API code 100: invalid parameter.
      invalid: () => '100',
      // Subcode 1346003: the post goes against the Community Standards.
      rejected: '368/1346003',
      mediaTooLarge: '1366046',
      tokenRevoked: '190/460',
      rateLimited: '32',
      // Meta's 503 (a Graph code-2 body reads as 2; the sandbox names the HTTP status, as every network's does).
      unavailable: '503',
    },
    rejectedMessage: 'This content goes against our Community Standards.',
  },
  postIdentity({ hash }) {
    // A Page post id is `<page-id>_<post-id>`, both numeric (15–17 digits).
    const pageId = `10${digits(hash, 0, 13)}`;
    const postId = `12${digits(hash, 8, 14)}`;
    return {
      platformPostId: `${pageId}_${postId}`,
      platformPostUrl: `https://www.facebook.com/${pageId}/posts/${postId}`,
    };
  },
};
