import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from './http.js';
import type { FakeUserToken } from './user-tokens.js';

/** How a network words the three token refusals (each its own Graph error shape). */
export interface TokenRefusals {
  invalidToken(): Reply;
  revokedToken(): Reply;
  expiredToken(): Reply;
}

/** What authenticating reads of a request and of the fake's store. */
export interface AuthenticatingContext<User> {
  headers: IncomingHttpHeaders;
  /** Query parameters, then form fields. */
  fields: URLSearchParams;
  settings: { now(): number };
  store: { tokens: ReadonlyMap<string, FakeUserToken>; users: ReadonlyMap<string, User> };
}

/**
 * The caller's token, from `Authorization: Bearer` or `access_token`, as Graph checks it: known,
 * not revoked, unexpired, of a known user. The context with its token and user, or the refusal.
 */
export function authenticateUser<User, C extends AuthenticatingContext<User>>(
  context: C,
  refusals: TokenRefusals,
): (C & { token: FakeUserToken; user: User }) | Reply {
  const bearer = /^Bearer (.+)$/.exec(context.headers.authorization ?? '')?.[1];
  const value = bearer ?? context.fields.get('access_token') ?? '';
  const token = context.store.tokens.get(value);
  if (!token) return refusals.invalidToken();
  if (token.revoked) return refusals.revokedToken();
  if (token.expiresAt <= context.settings.now()) return refusals.expiredToken();
  const user = context.store.users.get(token.userId);
  if (!user) return refusals.invalidToken();
  return { ...context, token, user };
}

/**
 * The token a token-exchange call names in its `access_token` parameter: known, not revoked,
 * unexpired; or the refusal.
 */
export function namedToken(
  context: Pick<AuthenticatingContext<unknown>, 'fields' | 'settings'> & {
    store: { tokens: ReadonlyMap<string, FakeUserToken> };
  },
  refusals: TokenRefusals,
): FakeUserToken | Reply {
  const token = context.store.tokens.get(context.fields.get('access_token') ?? '');
  if (!token) return refusals.invalidToken();
  if (token.revoked) return refusals.revokedToken();
  if (token.expiresAt <= context.settings.now()) return refusals.expiredToken();
  return token;
}
