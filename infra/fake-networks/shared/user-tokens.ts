/** A user token of a Meta-style OAuth: short-lived from a code, then long-lived (refreshable). */
export interface FakeUserToken {
  token: string;
  userId: string;
  scopes: string[];
  kind: 'short' | 'long';
  issuedAt: number;
  expiresAt: number;
  revoked: boolean;
}

/** An authorization code the consent window handed out, until it is exchanged (once) or expires. */
export interface FakeAuthorizationCode {
  code: string;
  userId: string;
  scopes: string[];
  redirectUri: string;
  expiresAt: number;
  used: boolean;
}

/** What a test sees of a token: everything but its scopes. */
export type FakeUserTokenSummary = Omit<FakeUserToken, 'scopes'>;

/** The control surface's hold on the tokens a fake issued. */
export interface UserTokenControls {
  expireToken(token: string): void;
  revokeToken(token: string): void;
  tokens(): FakeUserTokenSummary[];
}

export function userTokenControls(
  tokens: ReadonlyMap<string, FakeUserToken>,
  now: () => number,
): UserTokenControls {
  const token = (value: string) => {
    const found = tokens.get(value);
    if (!found) throw new Error('The fake issued no such token.');
    return found;
  };
  return {
    expireToken: (value) => {
      token(value).expiresAt = now() - 1;
    },
    revokeToken: (value) => {
      token(value).revoked = true;
    },
    tokens: () =>
      [...tokens.values()].map(({ token: value, userId, kind, issuedAt, expiresAt, revoked }) => ({
        token: value,
        userId,
        kind,
        issuedAt,
        expiresAt,
        revoked,
      })),
  };
}

/** Where a fake keeps its tokens and how long it lets them live. */
export interface TokenIssuer {
  store: { secret(bytes: number): string; tokens: Map<string, FakeUserToken> };
  settings: { now(): number; shortLivedSeconds: number; longLivedSeconds: number };
}

/** A new token, short- or long-lived from now, kept in the store. */
export function issueUserToken(
  issuer: TokenIssuer,
  userId: string,
  scopes: string[],
  kind: FakeUserToken['kind'],
): FakeUserToken {
  const now = issuer.settings.now();
  const seconds = kind === 'short' ? issuer.settings.shortLivedSeconds : issuer.settings.longLivedSeconds;
  const token: FakeUserToken = {
    token: issuer.store.secret(48),
    userId,
    scopes,
    kind,
    issuedAt: now,
    expiresAt: now + seconds * 1000,
    revoked: false,
  };
  issuer.store.tokens.set(token.token, token);
  return token;
}
