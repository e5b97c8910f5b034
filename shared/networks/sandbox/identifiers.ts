import { createHash } from 'node:crypto';
import type { Platform } from '../../domain/platforms.js';
import type { PostType } from '../../domain/posts.js';
import { SANDBOX_SIMULATIONS } from '../registry.js';
import type { SandboxPostIdentity } from './simulation.js';

export type { SandboxPostIdentity } from './simulation.js';

/**
 * The id and URL the sandbox gives a post, shaped like the real network's (networks/*.md; each
 * network's sandbox.ts) and derived only from the platform and the client reference, so a repeat of
 * the post gets the same id in any process. The URL also uses the account's handle and, where the
 * network has several, the post's kind (TikTok photo posts, YouTube Shorts).
 */
export function sandboxPostIdentity(input: {
  platform: Platform;
  clientReference: string;
  handle: string;
  postType: PostType;
}): SandboxPostIdentity {
  const { platform, clientReference, postType } = input;
  const hash = createHash('sha256').update(`sandbox:${platform}:${clientReference}`).digest();
  const handle = encodeURIComponent(input.handle.trim().replace(/^@+/, ''));
  return SANDBOX_SIMULATIONS[platform].postIdentity({ hash, handle, postType });
}
