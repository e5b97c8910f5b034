/**
 * Magic content of the sandbox network (docs/sandbox.md): tokens like `[sandbox:rate_limited:5]`
 * anywhere in a post's text choose how the simulated network answers. Everything here is derived
 * from the text alone, so a post behaves the same in every process and after restarts.
 */

/** Upper bound of `[sandbox:slow:MS]`: long enough to outlast any worker's time-out, not a hang. */
export const SANDBOX_MAX_SLOW_MS = 60_000;
/** `[sandbox:slow]` without a number. */
export const SANDBOX_DEFAULT_SLOW_MS = 10_000;

export interface SandboxDirectives {
  /** `[sandbox:rate_limited:N]`: throttled until N minutes after the post was created (N default 1). */
  rateLimitedMinutes?: number;
  /** `[sandbox:transient:K]`: attempts 1..K fail with a 503 (K default 1). */
  transientAttempts?: number;
  /** `[sandbox:media_too_large]`. */
  mediaTooLarge: boolean;
  /** `[sandbox:token_revoked]`. */
  tokenRevoked: boolean;
  /** `[sandbox:rejected]`. */
  rejected: boolean;
  /** `[sandbox:slow:MS]`: answer after MS milliseconds, at most SANDBOX_MAX_SLOW_MS. */
  slowMs?: number;
  /**
   * `[sandbox:metrics_rate_limited:N]`: metrics reads are throttled until N minutes after the first
   * collection's time (an hour after publication; N default 1).
   */
  metricsRateLimitedMinutes?: number;
  /** `[sandbox:metrics_not_found]` and the like: how every metrics read of the post answers. */
  metricsFailure?: SandboxMetricsFailure;
  /** Tokens that look like `[sandbox:…]` but are not understood, verbatim, in order; they do nothing. */
  ignored: string[];
}

/** The metrics reads' failures chosen by magic content (docs/sandbox.md "Metrics"). */
export type SandboxMetricsFailure = 'not_found' | 'missing_scopes' | 'auth_failed' | 'unavailable';

/** `[sandbox:` then a name, optionally `:argument`, then `]`; no spaces or brackets inside. */
const TOKEN = /\[sandbox:([^\]\s:[]*)(?::([^\]\s[]*))?\]/g;
/** Whole numbers only (no signs, decimals or units); long enough for any sensible value. */
const COUNT = /^\d{1,9}$/;

type Apply = (directives: SandboxDirectives, argument: string | undefined) => boolean;

/** A flag takes no argument. */
const flag =
  (key: 'mediaTooLarge' | 'tokenRevoked' | 'rejected'): Apply =>
  (directives, argument) => {
    if (argument !== undefined) return false;
    directives[key] = true;
    return true;
  };

/** A number with a default when omitted; the first occurrence wins. */
const count =
  (
    key: 'rateLimitedMinutes' | 'transientAttempts' | 'slowMs' | 'metricsRateLimitedMinutes',
    fallback: number,
    max = Infinity,
  ): Apply =>
  (directives, argument) => {
    if (argument !== undefined && !COUNT.test(argument)) return false;
    directives[key] ??= Math.min(argument === undefined ? fallback : Number(argument), max);
    return true;
  };

/** A metrics failure takes no argument; the first one wins. */
const metricsFailure =
  (failure: SandboxMetricsFailure): Apply =>
  (directives, argument) => {
    if (argument !== undefined) return false;
    directives.metricsFailure ??= failure;
    return true;
  };

const DIRECTIVES: Readonly<Record<string, Apply>> = {
  rate_limited: count('rateLimitedMinutes', 1),
  transient: count('transientAttempts', 1),
  media_too_large: flag('mediaTooLarge'),
  token_revoked: flag('tokenRevoked'),
  rejected: flag('rejected'),
  slow: count('slowMs', SANDBOX_DEFAULT_SLOW_MS, SANDBOX_MAX_SLOW_MS),
  metrics_rate_limited: count('metricsRateLimitedMinutes', 1),
  metrics_not_found: metricsFailure('not_found'),
  metrics_missing_scopes: metricsFailure('missing_scopes'),
  metrics_auth_failed: metricsFailure('auth_failed'),
  metrics_unavailable: metricsFailure('unavailable'),
};

/**
 * Reads every `[sandbox:…]` token of the given texts (all parts of a post). Names are exact and
 * lowercase. A token with a name we do not know, an argument where none is taken, or an argument
 * that is not a whole number is ignored (listed in `ignored`). When a token repeats, the first wins.
 */
export function parseSandboxDirectives(texts: readonly string[]): SandboxDirectives {
  const directives: SandboxDirectives = {
    mediaTooLarge: false,
    tokenRevoked: false,
    rejected: false,
    ignored: [],
  };
  for (const text of texts) {
    for (const match of text.matchAll(TOKEN)) {
      const [token, name = '', argument] = match;
      const apply = Object.hasOwn(DIRECTIVES, name) ? DIRECTIVES[name] : undefined;
      if (!apply?.(directives, argument)) directives.ignored.push(token);
    }
  }
  return directives;
}
