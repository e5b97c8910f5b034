import { digits, MB, type SandboxSimulation } from '../sandbox/simulation.js';

/** LinkedIn in the sandbox (../sandbox/simulation.ts). */
export const linkedinSandbox: SandboxSimulation = {
  latencyMs: { min: 150, max: 400 },
  mediaSizeLimits: { video: 500 * MB, document: 100 * MB },
  profile: {
    rawCodes: {
      invalid: () => '422',
      rejected: 'DUPLICATE_POST',
      mediaTooLarge: 'PROCESSING_FAILED',
      tokenRevoked: '65601',
      rateLimited: '429',
      unavailable: '503',
    },
    rejectedMessage: 'Content is a duplicate of an existing post.',
  },
  postIdentity({ hash }) {
    // POST /rest/posts answers with the share URN in `x-restli-id`.
    const urn = `urn:li:share:7${digits(hash, 0, 18)}`;
    return { platformPostId: urn, platformPostUrl: `https://www.linkedin.com/feed/update/${urn}/` };
  },
};
