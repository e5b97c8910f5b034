import type { Platform } from '../../domain/platforms.js';
import type { MediaKind, RuleViolation } from '../../domain/posts.js';
import { mediaCategoryOf, X_CATEGORY_MAX_BYTES } from '../x/limits.js';

export interface LatencyRange {
  /** Milliseconds, inclusive. */
  min: number;
  max: number;
}

/** How long each network usually takes to accept a post (media uploads and processing included). */
export const SANDBOX_DEFAULT_LATENCY_MS: Readonly<Record<Platform, LatencyRange>> = {
  twitter: { min: 80, max: 250 },
  linkedin: { min: 150, max: 400 },
  instagram: { min: 300, max: 900 },
  tiktok: { min: 400, max: 1200 },
  youtube: { min: 500, max: 1500 },
};

const MB = 1024 * 1024;
const GB = 1024 * MB;

/**
 * Largest file each network takes, per kind (networks/*.md "Media limits"); absent: no documented
 * limit. Only pre-uploaded media (whose size is stored) is checked; X takes animated GIFs up to 15 MB.
 */
export const SANDBOX_MEDIA_SIZE_LIMITS: Readonly<Record<Platform, Partial<Record<MediaKind, number>>>> = {
  // X's upload per media_category (docs/networks.md, short-message network): what the connector sends.
  twitter: { image: X_CATEGORY_MAX_BYTES.tweet_image, video: mediaCategoryOf('video/mp4').maxBytes },
  linkedin: { video: 500 * MB, document: 100 * MB },
  instagram: { image: 8 * MB, video: 300 * MB },
  tiktok: { image: 20 * MB, video: 4 * GB },
  youtube: { video: 256 * GB },
};
export const X_GIF_SIZE_LIMIT = X_CATEGORY_MAX_BYTES.tweet_gif;

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

const TEXT_CODES = new Set(['TEXT_REQUIRED', 'TEXT_TOO_LONG', 'INVALID_CHARACTERS']);

export const NETWORK_PROFILES: Readonly<Record<Platform, NetworkProfile>> = {
  twitter: {
    name: 'X',
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
  linkedin: {
    name: 'LinkedIn',
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
  instagram: {
    name: 'Instagram',
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
  tiktok: {
    name: 'TikTok',
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
  youtube: {
    name: 'YouTube',
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
};
