import { base64Id, GB, type SandboxSimulation } from '../sandbox/simulation.js';

const TEXT_CODES = new Set(['TEXT_REQUIRED', 'TEXT_TOO_LONG', 'INVALID_CHARACTERS']);

/** YouTube in the sandbox (../sandbox/simulation.ts). */
export const youtubeSandbox: SandboxSimulation = {
  latencyMs: { min: 500, max: 1500 },
  mediaSizeLimits: { video: 256 * GB },
  profile: {
    rawCodes: {
      // `errors[0].reason` of the 400: invalidTitle / invalidDescription for metadata.
      invalid: (violation) =>
        TEXT_CODES.has(violation.code)
          ? /description/i.test(violation.message)
            ? 'invalidDescription'
            : 'invalidTitle'
          : 'badRequest',
      // `status.rejectionReason` after processing.
      rejected: 'duplicate',
      mediaTooLarge: '400',
      tokenRevoked: 'invalid_grant',
      rateLimited: 'quotaExceeded',
      unavailable: '503',
    },
    rejectedMessage: 'The video was rejected as a duplicate.',
  },
  postIdentity({ hash, postType }) {
    const id = base64Id(hash, 8);
    return {
      platformPostId: id,
      platformPostUrl:
        postType === 'short'
          ? `https://www.youtube.com/shorts/${id}`
          : `https://www.youtube.com/watch?v=${id}`,
    };
  },
};
