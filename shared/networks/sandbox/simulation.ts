import type { MediaKind, PostType } from '../../domain/posts.js';
import type { RuleViolation } from '../../domain/rule-violation.js';

export interface LatencyRange {
  /** Milliseconds, inclusive. */
  min: number;
  max: number;
}

/**
 * How each network names a failure (networks/README.md "Common mapping for connectors" and each
 * network's error table), as `platformRawCode`.
 */
export interface NetworkProfile {
  /** The network's name in messages. */
  name: string;
  rawCodes: {
    /** The post breaks the network's rules (a validation error). */
    invalid: (violation: RuleViolation) => string;
    /** Refused as duplicate content or for policy. */
    rejected: string;
    mediaTooLarge: string;
    tokenRevoked: string;
    rateLimited: string;
    unavailable: string;
  };
  /** What the network says when it refuses a post as duplicate or against policy. */
  rejectedMessage: string;
}

export interface SandboxPostIdentity {
  platformPostId: string;
  platformPostUrl: string;
}

/**
 * What the sandbox simulates of one network: each network declares its own in
 * `shared/networks/<net>/sandbox.ts`, and shared/networks/registry.ts collects them.
 */
export interface SandboxSimulation {
  /** How long the network usually takes to accept a post (media uploads and processing included). */
  latencyMs: LatencyRange;
  /**
   * Largest file it takes, per kind (networks/*.md "Media limits"); absent: no documented limit.
   * Only pre-uploaded media (whose size is stored) is checked.
   */
  mediaSizeLimits: Partial<Record<MediaKind, number>>;
  /** Largest animated GIF, where the network has a limit of its own for them (X: 15 MB). */
  gifSizeLimit?: number;
  /** How it names a failure; its name in messages comes from its definition. */
  profile: Omit<NetworkProfile, 'name'>;
  /**
   * The id and URL of a post, shaped like the real network's, from the hash of the platform and
   * the client reference, the account's handle (URL-encoded, without a leading @) and the post type.
   */
  postIdentity(input: { hash: Buffer; handle: string; postType: PostType }): SandboxPostIdentity;
  /**
   * Whether the network would hand this post to the creator's inbox as a draft rather than publish
   * it (TikTok's inbox mode), from its own platformOptions: the sandbox then answers `awaiting_creator`.
   */
  awaitsCreator?(options: unknown): boolean;
}

export const MB = 1024 * 1024;
export const GB = 1024 * MB;

/** `count` decimal digits (≤ 18) from 8 bytes of the hash at `offset`, zero-padded. */
export function digits(hash: Buffer, offset: number, count: number): string {
  const value = hash.readBigUInt64BE(offset) % 10n ** BigInt(count);
  return value.toString().padStart(count, '0');
}

/** 11 characters of [A-Za-z0-9_-] from 8 bytes of the hash at `offset` (how YouTube ids are made). */
export function base64Id(hash: Buffer, offset: number): string {
  return hash.subarray(offset, offset + 8).toString('base64url');
}
