import { describe, expect, it } from 'vitest';
import { listAccounts } from '../../../shared/operations/accounts/list-accounts.js';

/**
 * The `platform` filter of GET .../accounts is normalised by normalizePlatform; an unknown value
 * must fail validation (400 INVALID_REQUEST), never reach the store.
 */
describe('listAccounts query', () => {
  const query = listAccounts.schemas.query;

  it('stores the x alias as twitter and defaults the page size to 25', () => {
    // Act
    const parsed = query.parse({ platform: 'X' });

    // Assess
    expect(parsed).toEqual({ platform: 'twitter', limit: 25 });
  });

  it.each(['myspace', 'constructor', '__proto__'])('rejects the unknown platform "%s"', (platform) => {
    // Act
    const result = query.safeParse({ platform });

    // Assess
    expect(result.success).toBe(false);
  });

  it.each(['0', '101', '2.5', 'ten'])('rejects the limit %s', (limit) => {
    expect(query.safeParse({ limit }).success).toBe(false);
  });

  it('coerces a limit given as query text', () => {
    expect(query.parse({ limit: '100' }).limit).toBe(100);
  });
});
