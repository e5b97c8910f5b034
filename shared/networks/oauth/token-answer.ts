import * as z from 'zod';
import type { TokenSet } from '../../ports/network-oauth.js';

/**
 * A token answer's standard fields (RFC 6749 §5.1); a network's own (a refresh token's lifetime)
 * are read beside them (grant-answer.ts).
 */
export const StandardTokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
});

/** The fields of a token answer (RFC 6749 §5.1) that make a TokenSet, once validated. */
export interface TokenAnswerFields {
  access_token: string;
  expires_in?: number | undefined;
  refresh_token?: string | undefined;
  scope?: string | undefined;
}

export interface TokenAnswerReading {
  /** Epoch ms when the answer came: lifetimes count from it. */
  issuedAt: number;
  /** The token set refreshed, if any: what the answer leaves out is kept from it. */
  previous?: TokenSet | undefined;
  /** How the network separates granted scopes: spaces (the RFC), or commas too (LinkedIn, TikTok). */
  scopeSeparator: RegExp;
  /** The scopes when neither the answer nor a previous token set names any. */
  defaultScopes: readonly string[];
  /**
   * Only for networks that say how long a refresh token lives (LinkedIn, TikTok): its lifetime in
   * this answer, if given. Without it, the token set has no refreshExpiresAt at all.
   */
  refreshLifetime?: { expiresIn: number | undefined };
}

/**
 * A token answer as a TokenSet: `expires_in` becomes `expiresAt`, `scope` becomes `scopes`, and an
 * answer without a refresh token (or its lifetime) keeps the previous one's: networks that do not
 * rotate refresh tokens leave them out, and a refresh token's lifetime counts from the first grant.
 */
export function tokenSetFromAnswer(answer: TokenAnswerFields, reading: TokenAnswerReading): TokenSet {
  const { issuedAt, previous } = reading;
  const at = (seconds: number) => new Date(issuedAt + seconds * 1000).toISOString();
  const refreshToken = answer.refresh_token ?? previous?.refreshToken;
  const refreshExpiresAt = refreshExpiry(reading, at);
  return {
    accessToken: answer.access_token,
    ...(refreshToken && { refreshToken }),
    ...(answer.expires_in !== undefined && { expiresAt: at(answer.expires_in) }),
    ...(refreshToken && refreshExpiresAt && { refreshExpiresAt }),
    scopes: answer.scope
      ? answer.scope.split(reading.scopeSeparator).filter(Boolean)
      : (previous?.scopes ?? [...reading.defaultScopes]),
  };
}

function refreshExpiry(reading: TokenAnswerReading, at: (seconds: number) => string): string | undefined {
  const lifetime = reading.refreshLifetime;
  if (!lifetime) return undefined;
  if (lifetime.expiresIn !== undefined) return at(lifetime.expiresIn);
  return reading.previous?.refreshExpiresAt;
}
