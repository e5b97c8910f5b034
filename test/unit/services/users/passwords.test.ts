import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  passwordProblem,
  verifyPassword,
} from '../../../../shared/services/users/passwords.js';

describe('passwords', () => {
  it('hashes to a self-describing scrypt string with its own salt each time', async () => {
    // Act
    const [first, second] = await Promise.all([
      hashPassword('a long password'),
      hashPassword('a long password'),
    ]);

    // Assess
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('a long password');
  });

  it('verifies the right password only', async () => {
    // Prepare
    const stored = await hashPassword('a long password');

    // Act
    const outcomes = await Promise.all([
      verifyPassword('a long password', stored),
      verifyPassword('a long passwore', stored),
      verifyPassword('', stored),
    ]);

    // Assess
    expect(outcomes).toEqual([true, false, false]);
  });

  it('answers false, after the same work, without a hash or with one it cannot read', async () => {
    // Prepare
    const stored = await hashPassword('a long password');
    const [, n, r, p, salt, key] = stored.split('$');
    const greedy = ['scrypt', 2 ** 24, r, p, salt, key].join('$');

    // Act
    const outcomes = await Promise.all([
      verifyPassword('a long password', undefined),
      verifyPassword('a long password', 'plain'),
      verifyPassword('a long password', greedy),
      verifyPassword('a long password', ['scrypt', Number(n) - 1, r, p, salt, key].join('$')),
    ]);

    // Assess
    expect(outcomes).toEqual([false, false, false, false]);
  });

  it('asks for 12 to 200 characters, counting characters rather than bytes', () => {
    expect(passwordProblem('x'.repeat(11))).toBe('Use at least 12 characters.');
    expect(passwordProblem('x'.repeat(12))).toBeUndefined();
    expect(passwordProblem('🔑'.repeat(12))).toBeUndefined();
    expect(passwordProblem('x'.repeat(200))).toBeUndefined();
    expect(passwordProblem('x'.repeat(201))).toBe('Use at most 200 characters.');
  });
});
