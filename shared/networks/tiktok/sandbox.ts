import { digits, GB, MB, type SandboxSimulation } from '../sandbox/simulation.js';
import { tiktokOptionsSchema } from './options-schema.js';

/** TikTok in the sandbox (../sandbox/simulation.ts). */
export const tiktokSandbox: SandboxSimulation = {
  latencyMs: { min: 400, max: 1200 },
  mediaSizeLimits: { image: 20 * MB, video: 4 * GB },
  profile: {
    rawCodes: {
      invalid: () => 'invalid_params',
      rejected: 'spam_risk_text',
      mediaTooLarge: 'invalid_file_upload',
      tokenRevoked: 'access_token_invalid',
      rateLimited: 'rate_limit_exceeded',
      unavailable: '503',
    },
    rejectedMessage: 'The post was refused by spam-risk checks.',
  },
  postIdentity({ hash, handle, postType }) {
    const id = `7${digits(hash, 0, 18)}`;
    const kind = postType === 'carousel' ? 'photo' : 'video';
    return { platformPostId: id, platformPostUrl: `https://www.tiktok.com/@${handle}/${kind}/${id}` };
  },
  // mode inbox: TikTok puts the draft in the creator's inbox (docs/networks.md), awaiting_creator.
  awaitsCreator(options) {
    return tiktokOptionsSchema.safeParse(options ?? {}).data?.mode === 'inbox';
  },
};
