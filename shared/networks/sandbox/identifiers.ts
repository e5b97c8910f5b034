import { createHash } from 'node:crypto';
import type { Platform } from '../../domain/platforms.js';
import type { PostType } from '../../domain/posts.js';

export interface SandboxPostIdentity {
  platformPostId: string;
  platformPostUrl: string;
}

/**
 * The id and URL the sandbox gives a post, shaped like the real network's (networks/*.md) and derived
 * only from the platform and the client reference, so a repeat of the post gets the same id in any
 * process. The URL also uses the account's handle and, where the network has several, the post's kind
 * (TikTok photo posts, YouTube Shorts).
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
  switch (platform) {
    case 'twitter': {
      // Snowflake-sized: 19 digits (e.g. 1445880548472328192).
      const id = `1${digits(hash, 0, 18)}`;
      return { platformPostId: id, platformPostUrl: `https://x.com/${handle || 'i'}/status/${id}` };
    }
    case 'linkedin': {
      // POST /rest/posts answers with the share URN in `x-restli-id`.
      const urn = `urn:li:share:7${digits(hash, 0, 18)}`;
      return { platformPostId: urn, platformPostUrl: `https://www.linkedin.com/feed/update/${urn}/` };
    }
    case 'instagram': {
      // Graph API media ids are 17 digits (e.g. 17889455560051444); the permalink uses a shortcode.
      const id = `17${digits(hash, 0, 15)}`;
      return { platformPostId: id, platformPostUrl: `https://www.instagram.com/p/${base64Id(hash, 8)}/` };
    }
    case 'tiktok': {
      const id = `7${digits(hash, 0, 18)}`;
      const kind = postType === 'carousel' ? 'photo' : 'video';
      return { platformPostId: id, platformPostUrl: `https://www.tiktok.com/@${handle}/${kind}/${id}` };
    }
    case 'youtube': {
      const id = base64Id(hash, 8);
      return {
        platformPostId: id,
        platformPostUrl:
          postType === 'short'
            ? `https://www.youtube.com/shorts/${id}`
            : `https://www.youtube.com/watch?v=${id}`,
      };
    }
  }
}

/** `count` decimal digits (≤ 18) from 8 bytes of the hash at `offset`, zero-padded. */
function digits(hash: Buffer, offset: number, count: number): string {
  const value = hash.readBigUInt64BE(offset) % 10n ** BigInt(count);
  return value.toString().padStart(count, '0');
}

/** 11 characters of [A-Za-z0-9_-] from 8 bytes of the hash at `offset` (how YouTube ids are made). */
function base64Id(hash: Buffer, offset: number): string {
  return hash.subarray(offset, offset + 8).toString('base64url');
}
