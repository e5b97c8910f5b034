import type { Clock } from '../../ports/clock.js';
import type { UserStore } from '../../ports/user-store.js';
import { sha256Hex } from './secrets.js';

/** Failed sign-ins are counted in fixed windows of this length. */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
/** Failures allowed per email, and per source address, in one window. */
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
/** Counters outlive their window by this much before TTL may delete them. */
const GRACE_SECONDS = 5 * 60;

interface Window {
  start: string;
  endMs: number;
}

function windowAt(now: number): Window {
  const length = SIGN_IN_WINDOW_SECONDS * 1000;
  const startMs = Math.floor(now / length) * length;
  return { start: new Date(startMs).toISOString(), endMs: startMs + length };
}

/**
 * Counter keys: the email only as a hash, so the counters table holds no address book. Without a
 * known source address only the email is counted: one shared "unknown" counter would let anyone
 * lock everyone out.
 */
function counters(email: string, sourceIp: string) {
  return [
    { key: `email:${sha256Hex(email)}`, limit: MAX_FAILURES_PER_EMAIL },
    ...(sourceIp ? [{ key: `ip:${sourceIp}`, limit: MAX_FAILURES_PER_ADDRESS }] : []),
  ];
}

/**
 * Sign-in throttling: failures (only failures) are counted per email and per source address;
 * once either reaches its limit, attempts are refused unchecked until the window ends.
 */
export function makeSignInThrottle(deps: {
  users: Pick<UserStore, 'countSignInFailure' | 'signInFailures'>;
  clock: Clock;
}) {
  return {
    /** Seconds to wait when the email or the address has failed too often lately; else undefined. */
    async retryAfter(email: string, sourceIp: string): Promise<number | undefined> {
      const now = deps.clock.now();
      const window = windowAt(now);
      const counts = await Promise.all(
        counters(email, sourceIp).map(async ({ key, limit }) => ({
          limit,
          count: await deps.users.signInFailures(key, window.start),
        })),
      );
      if (counts.every(({ count, limit }) => count < limit)) return undefined;
      return Math.max(1, Math.ceil((window.endMs - now) / 1000));
    },
    async countFailure(email: string, sourceIp: string): Promise<void> {
      const window = windowAt(deps.clock.now());
      const expiresAt = new Date(window.endMs + GRACE_SECONDS * 1000).toISOString();
      await Promise.all(
        counters(email, sourceIp).map(({ key }) =>
          deps.users.countSignInFailure(key, window.start, expiresAt),
        ),
      );
    },
  };
}

export type SignInThrottle = ReturnType<typeof makeSignInThrottle>;
