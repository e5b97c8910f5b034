import { base64Id, digits, MB, type SandboxSimulation } from '../sandbox/simulation.js';

/** Instagram in the sandbox (../sandbox/simulation.ts). */
export const instagramSandbox: SandboxSimulation = {
  latencyMs: { min: 300, max: 900 },
  mediaSizeLimits: { image: 8 * MB, video: 300 * MB },
  profile: {
    rawCodes: {
      // Graph API code 100: invalid parameter.
      invalid: () => '100',
      // Subcode 2207051: the action was flagged as spam.
      rejected: '2207051',
      mediaTooLarge: '2207004',
      tokenRevoked: '190',
      rateLimited: '2207042',
      unavailable: '503',
    },
    rejectedMessage: 'The action was blocked: it was flagged as spam.',
  },
  postIdentity({ hash }) {
    // Graph API media ids are 17 digits (e.g. 17889455560051444); the permalink uses a shortcode.
    const id = `17${digits(hash, 0, 15)}`;
    return { platformPostId: id, platformPostUrl: `https://www.instagram.com/p/${base64Id(hash, 8)}/` };
  },
};
