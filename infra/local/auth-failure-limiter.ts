import { createHash } from 'node:crypto';
import type { Clock } from '../../shared/ports/clock.js';

/** The default: failed authentications per client address per minute before it is refused. */
export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 30;
const WINDOW_MS = 60_000;
/** How long a key that authenticated from an address stays let through while that address is refused. */
const TRUSTED_FOR_MS = 15 * 60_000;
/** Bounds on memory, whatever a caller sends: addresses tracked, trusted keys per address. */
const MAX_ADDRESSES = 10_000;
const MAX_TRUSTED_PER_ADDRESS = 32;

export interface AuthFailureLimiterOptions {
  /** 401 answers an address may get in one minute; past them it is refused until the minute ends. */
  failuresPerMinute: number;
  clock: Clock;
}

/** A refused request: when the address may try again. */
export interface AuthFailureRefusal {
  retryAfterSeconds: number;
}

/**
 * Counts failed authentications (401 answers) per client address, so a flood of made-up keys is
 * refused with 429 before a handler runs and costs no key look-up.
 *
 * A legitimate caller behind the same address (on the local host every caller is 127.0.0.1) is
 * not locked out with the attacker: a key that authenticated from the address in the last
 * 15 minutes is still let through while the address is refused. Only requests with a missing,
 * unknown or not-yet-proven key are refused, until the minute that began with the first counted
 * failure ends. Concurrent requests are counted when answered, so a burst may pass the limit by
 * as many requests as were in flight.
 */
export interface AuthFailureLimiter {
  /** Undefined: let the request through. */
  check(address: string, authorization: string | undefined): AuthFailureRefusal | undefined;
  /** What the handler answered a request from `address` with this Authorization header. */
  record(address: string, authorization: string | undefined, status: number): void;
}

interface AddressState {
  windowStartedAt: number;
  failures: number;
  /** Fingerprints of keys that authenticated from this address, with when they last did. */
  trusted: Map<string, number>;
}

/**
 * Whether an answer proves the key was accepted: every status but 401 comes after authentication,
 * except a 413 or 415 (checked before it) and a 5xx (which may come from anywhere).
 */
function provesTheKey(status: number): boolean {
  return status !== 401 && status !== 413 && status !== 415 && status < 500;
}

/** The header is kept only as a hash, so no key stays in memory in the clear. */
const fingerprint = (authorization: string) => createHash('sha256').update(authorization).digest('base64url');

export function makeAuthFailureLimiter(options: AuthFailureLimiterOptions): AuthFailureLimiter {
  if (!Number.isInteger(options.failuresPerMinute) || options.failuresPerMinute < 1) {
    throw new RangeError(
      `failuresPerMinute must be a whole number of 1 or more, got ${options.failuresPerMinute}.`,
    );
  }
  const states = new Map<string, AddressState>();

  /** The address's state with its window and trusted keys brought up to now. */
  const stateOf = (address: string, now: number): AddressState | undefined => {
    const state = states.get(address);
    if (!state) return undefined;
    if (state.failures > 0 && now - state.windowStartedAt >= WINDOW_MS) state.failures = 0;
    for (const [key, at] of state.trusted) if (now - at >= TRUSTED_FOR_MS) state.trusted.delete(key);
    if (state.failures === 0 && state.trusted.size === 0) {
      states.delete(address);
      return undefined;
    }
    return state;
  };

  const createState = (address: string, now: number): AddressState => {
    const state: AddressState = { windowStartedAt: now, failures: 0, trusted: new Map() };
    states.set(address, state);
    // The oldest address goes first: a spread of addresses cannot grow memory without bound.
    for (const oldest of states.keys()) {
      if (states.size <= MAX_ADDRESSES) break;
      states.delete(oldest);
    }
    return state;
  };

  return {
    check(address, authorization) {
      const now = options.clock.now();
      const state = stateOf(address, now);
      if (!state || state.failures < options.failuresPerMinute) return undefined;
      if (authorization !== undefined && state.trusted.has(fingerprint(authorization))) return undefined;
      return { retryAfterSeconds: Math.max(1, Math.ceil((state.windowStartedAt + WINDOW_MS - now) / 1000)) };
    },

    record(address, authorization, status) {
      const now = options.clock.now();
      if (status === 401) {
        const state = stateOf(address, now) ?? createState(address, now);
        // The minute begins with its first failure.
        if (state.failures === 0) state.windowStartedAt = now;
        state.failures += 1;
        // A key that fails now (revoked since) is trusted no longer.
        if (authorization !== undefined) state.trusted.delete(fingerprint(authorization));
        return;
      }
      if (authorization === undefined || !provesTheKey(status)) return;
      const state = stateOf(address, now) ?? createState(address, now);
      const key = fingerprint(authorization);
      // Delete then set: the Map keeps the most recently used key last, and drops the first.
      state.trusted.delete(key);
      state.trusted.set(key, now);
      for (const oldest of state.trusted.keys()) {
        if (state.trusted.size <= MAX_TRUSTED_PER_ADDRESS) break;
        state.trusted.delete(oldest);
      }
    },
  };
}
