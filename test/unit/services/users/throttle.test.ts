import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../../../shared/ports/clock.js';
import type { UserStore } from '../../../../shared/ports/user-store.js';
import { makeSignInThrottle } from '../../../../shared/services/users/throttle.js';

/** Only the counters of the port: what the throttle uses. */
function counterStore() {
  const counts = new Map<string, number>();
  const store: Pick<UserStore, 'countSignInFailure' | 'signInFailures'> = {
    async countSignInFailure(key, windowStart) {
      const next = (counts.get(`${key}#${windowStart}`) ?? 0) + 1;
      counts.set(`${key}#${windowStart}`, next);
      return next;
    },
    async signInFailures(key, windowStart) {
      return counts.get(`${key}#${windowStart}`) ?? 0;
    },
  };
  return { store, counts };
}

const START = Date.parse('2030-01-01T00:00:00Z');

function setUp() {
  const clock = fixedClock(START);
  const { store, counts } = counterStore();
  return { clock, counts, throttle: makeSignInThrottle({ users: store, clock }) };
}

describe('sign-in throttle', () => {
  it('lets 5 failures of an email pass, then asks to wait until its 15-minute window ends', async () => {
    // Prepare
    const { clock, throttle } = setUp();
    clock.set(START + 5 * 60_000 + 500);
    for (let i = 0; i < 4; i++) await throttle.countFailure('ada@example.com', '192.0.2.1');
    const beforeFifth = await throttle.retryAfter('ada@example.com', '192.0.2.1');
    await throttle.countFailure('ada@example.com', '192.0.2.1');

    // Act
    const afterFifth = await throttle.retryAfter('ada@example.com', '192.0.2.2');
    const otherEmail = await throttle.retryAfter('bob@example.com', '192.0.2.1');
    clock.set(START + 15 * 60_000);
    const nextWindow = await throttle.retryAfter('ada@example.com', '192.0.2.1');

    // Assess
    expect(beforeFifth).toBeUndefined();
    expect(afterFifth).toBe(10 * 60);
    expect(otherEmail).toBeUndefined();
    expect(nextWindow).toBeUndefined();
  });

  it('stops an address after 20 failures whatever the emails', async () => {
    // Prepare
    const { throttle } = setUp();
    for (let i = 0; i < 20; i++) await throttle.countFailure(`guess${i}@example.com`, '198.51.100.7');

    // Act
    const fromThere = await throttle.retryAfter('fresh@example.com', '198.51.100.7');
    const fromElsewhere = await throttle.retryAfter('fresh@example.com', '198.51.100.8');

    // Assess
    expect(fromThere).toBe(15 * 60);
    expect(fromElsewhere).toBeUndefined();
  });

  it('counts no address when none is known, and never keeps the email in clear', async () => {
    // Prepare
    const { counts, throttle } = setUp();

    // Act
    await throttle.countFailure('ada@example.com', '');

    // Assess
    const keys = [...counts.keys()];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^email:[0-9a-f]{64}#2030-01-01T00:00:00.000Z$/);
  });
});
