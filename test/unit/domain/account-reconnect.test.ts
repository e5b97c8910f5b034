import { describe, expect, it } from 'vitest';
import { needsReconnect, RECONNECT_NOTICE_MS } from '../../../shared/domain/account-reconnect.js';
import type { Account } from '../../../shared/domain/tenancy.js';

const NOW = Date.parse('2030-03-01T12:00:00Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const HOUR = 3600_000;

function real(overrides: Partial<Account> = {}): Account {
  return {
    accountId: 'acc_1',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    platform: 'linkedin',
    displayName: 'Ada',
    handle: 'ada',
    status: 'connected',
    sandbox: false,
    connectedAt: at(-HOUR),
    createdAt: at(-HOUR),
    networkUserId: 'u1',
    encryptedTokens: 'v1.sealed',
    tokenExpiresAt: at(60 * 24 * HOUR),
    refreshable: false,
    ...overrides,
  };
}

describe('needsReconnect', () => {
  it('a disconnected account does, sandbox or not', () => {
    expect(needsReconnect(real({ status: 'disconnected' }), NOW)).toBe(true);
    expect(needsReconnect(real({ status: 'disconnected', sandbox: true }), NOW)).toBe(true);
  });

  it('a connected sandbox account does not', () => {
    const { encryptedTokens: _none, tokenExpiresAt: _no, ...sandbox } = real({ sandbox: true });
    expect(needsReconnect(sandbox, NOW)).toBe(false);
  });

  it('a real account without tokens does', () => {
    const { encryptedTokens: _none, ...bare } = real();
    expect(needsReconnect(bare, NOW)).toBe(true);
  });

  it('a token without a refresh token: from a week before it ends', () => {
    expect(needsReconnect(real({ tokenExpiresAt: at(RECONNECT_NOTICE_MS + HOUR) }), NOW)).toBe(false);
    expect(needsReconnect(real({ tokenExpiresAt: at(RECONNECT_NOTICE_MS - HOUR) }), NOW)).toBe(true);
    expect(needsReconnect(real({ tokenExpiresAt: at(-HOUR) }), NOW)).toBe(true);
  });

  it('a token a refresh token renews does not, even expired, until the refresh token itself ends soon', () => {
    const refreshable = { refreshable: true, tokenExpiresAt: at(-HOUR) };
    expect(needsReconnect(real(refreshable), NOW)).toBe(false);
    expect(needsReconnect(real({ ...refreshable, refreshExpiresAt: at(30 * 24 * HOUR) }), NOW)).toBe(false);
    expect(needsReconnect(real({ ...refreshable, refreshExpiresAt: at(2 * 24 * HOUR) }), NOW)).toBe(true);
  });

  it('a token of unknown expiry without a refresh token does not', () => {
    const { tokenExpiresAt: _unknown, ...forever } = real();
    expect(needsReconnect(forever, NOW)).toBe(false);
  });
});
