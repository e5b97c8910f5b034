import { googleErrors, type Reply } from './http.js';
import { header, type RouteContext } from './route.js';
import type { FakeAccessToken } from './store.js';

/** The bearer token of an API call, checked as Google does: known, live, not revoked, with a scope that allows the call. */
export function authorize(context: RouteContext, scopes: readonly string[]): FakeAccessToken | Reply {
  const match = /^Bearer (.+)$/.exec(header(context, 'authorization') ?? '');
  const token = match ? context.store.accessTokens.get(match[1] ?? '') : undefined;
  if (!token || token.revoked || token.expiresAt <= context.settings.now())
    return googleErrors.unauthorized();
  if (!token.scopes.some((scope) => scopes.includes(scope))) return googleErrors.insufficientScope();
  return token;
}

/** Counts `units` against the project's daily quota; the quota error when they do not fit. */
export function charge(context: RouteContext, units: number): Reply | undefined {
  if (context.store.unitsUsed + units > context.settings.dailyUnits) return googleErrors.quotaExceeded();
  context.store.unitsUsed += units;
  return undefined;
}

export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number';
}
