import type { Platform } from './platforms.js';

/**
 * A workspace's publishing policies. A violation answers 403 policy_violation with the `facet`
 * that was broken and a `reason`.
 */
export interface WorkspacePolicies {
  /** Posts wait in pending_approval until someone with approvals:decide approves them. */
  requireApproval?: boolean;
  /** Facet `content`: case-insensitive terms that may not appear in any text. */
  blockedTerms?: string[];
  /** Facet `platform`: the only platforms posts may target. */
  allowedPlatforms?: Platform[];
  /** Facet `schedule`: publishing is allowed only inside this window (UTC). */
  postingWindow?: PostingWindow;
  /** Facet `schedule`: UTC dates (YYYY-MM-DD) on which nothing may be published. */
  blackoutDates?: string[];
  /** Facet `media`: every image needs non-empty alt text. */
  requireAltText?: boolean;
}

export interface PostingWindow {
  /** Days of the week allowed, 0 = Sunday … 6 = Saturday (UTC). Absent: every day. */
  days?: number[];
  /** "HH:MM" UTC, inclusive. */
  start: string;
  /** "HH:MM" UTC, exclusive; may be earlier than start for a window across midnight. */
  end: string;
}

export type PolicyFacet = 'content' | 'platform' | 'schedule' | 'media';

export interface PolicyViolation {
  facet: PolicyFacet;
  reason: string;
}
