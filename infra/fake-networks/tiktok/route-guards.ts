import type { RouteContext } from './context.js';
import { envelope, type Reply } from './http.js';
import type { FakeAccessToken, FakeTikTokCreator } from './state.js';

/** What every API route checks first: the bearer token and its scope, the JSON body. */

export interface Authorized {
  token: FakeAccessToken;
  creator: FakeTikTokCreator;
}

/** The bearer token, valid and with the scope (or one of the scopes); else TikTok's 401 envelope. */
export function authorize(context: RouteContext, scope: string | readonly string[]): Authorized | Reply {
  const scopes = typeof scope === 'string' ? [scope] : scope;
  const header = String(context.headers.authorization ?? '');
  const token = context.state.accessTokens.get(header.replace(/^Bearer /, ''));
  if (!token || token.revoked || token.expiresAt <= context.settings.now()) {
    return envelope(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
  }
  if (!scopes.some((one) => token.scopes.includes(one))) {
    return envelope(401, 'scope_not_authorized', 'The user did not authorize the scope required.');
  }
  const creator = context.state.creators.get(token.openId);
  if (!creator) return envelope(401, 'access_token_invalid', 'Unknown user.');
  return { token, creator };
}

export const isReply = <T extends object>(value: T | Reply): value is Reply => 'status' in value;

export function json(context: RouteContext): Record<string, unknown> | undefined {
  if (!String(context.headers['content-type'] ?? '').startsWith('application/json')) return undefined;
  try {
    const parsed: unknown = JSON.parse(context.body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export const invalid = (message: string) => envelope(400, 'invalid_params', message);
