import { hashApiKey, isWellFormedApiKey } from '../domain/api-keys.js';
import { UnauthorizedError } from '../domain/errors.js';
import type { Principal } from '../domain/tenancy.js';
import type { AgentKeyStore } from '../ports/agent-key-store.js';
import type { Clock } from '../ports/clock.js';
import { type Logger, silentLogger } from '../ports/logger.js';

export interface Authenticator {
  /** The caller behind an `Authorization` header value, or UnauthorizedError. */
  authenticate(authorization: string | undefined): Promise<Principal>;
}

const MAX_CACHED_KEYS = 1000;

/**
 * Resolves a bearer API key to its tenant and agent:
 * 1. the header must be `Bearer smcp_<64 hex>`;
 * 2. the key's SHA-256 must name a key record that is not revoked;
 * 3. its agent must exist and not be deleted, and its tenant must exist.
 * A resolved key is trusted for `cacheTtlMs` (docs/api-decisions.md#auth: up to 60 s before a revocation, a
 * deleted agent or a plan change takes effect), which saves two reads on most requests.
 * The plan's status is checked by the caller, so an inactive plan answers 403, not 401.
 * On a cache miss the key's last use is recorded in parallel with the tenant and agent read: at
 * most one write per key per cache period per process. Recording is best effort: a failure is
 * logged and the request goes on.
 */
export function makeAuthenticator(deps: {
  tenancy: AgentKeyStore;
  clock: Clock;
  cacheTtlMs: number;
  logger?: Logger;
}): Authenticator {
  const logger = deps.logger ?? silentLogger;

  const recordUse = async (keyHash: string, keyId: string): Promise<void> => {
    try {
      await deps.tenancy.touchApiKey(keyHash, new Date(deps.clock.now()).toISOString());
    } catch (error) {
      logger.warn('auth: could not record the API key last use', { keyId, error });
    }
  };

  const cache = new Map<string, { principal: Principal; expiresAt: number }>();

  const resolve = async (keyHash: string): Promise<Principal> => {
    const record = await deps.tenancy.getApiKeyByHash(keyHash);
    if (!record || record.revokedAt) throw new UnauthorizedError();
    const [{ tenant, agent }] = await Promise.all([
      deps.tenancy.getTenantAndAgent(record.tenantId, record.agentId),
      recordUse(keyHash, record.keyId),
    ]);
    if (!tenant || !agent || agent.deletedAt) throw new UnauthorizedError();
    return { tenant, agent, keyId: record.keyId };
  };

  return {
    async authenticate(authorization) {
      const match = /^Bearer (\S+)$/i.exec(authorization?.trim() ?? '');
      const plaintext = match?.[1];
      if (!plaintext || !isWellFormedApiKey(plaintext)) throw new UnauthorizedError();
      const keyHash = hashApiKey(plaintext);
      const now = deps.clock.now();
      const cached = cache.get(keyHash);
      if (cached && cached.expiresAt > now) return cached.principal;
      cache.delete(keyHash);
      const principal = await resolve(keyHash);
      if (deps.cacheTtlMs > 0) {
        // Oldest first out: Map keeps insertion order.
        if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value as string);
        cache.set(keyHash, { principal, expiresAt: now + deps.cacheTtlMs });
      }
      return principal;
    },
  };
}
