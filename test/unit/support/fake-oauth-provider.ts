import type { Clock } from '../../../shared/ports/clock.js';
import {
  type AuthorizationUrlRequest,
  type CodeExchange,
  GrantRefusedError,
  type NetworkProfile,
  type OAuthProvider,
  OAuthUnavailableError,
  type TokenSet,
} from '../../../shared/ports/network-oauth.js';

/** How the fake network's token endpoint answers one refresh. */
export type RefreshAnswer = 'renew' | 'refuse' | 'unavailable';

/**
 * A network's OAuth in memory, with X's habits: access tokens live `lifetimeMs`, every refresh
 * rotates the refresh token and the old one stops working at once (a second use is refused as
 * `invalid_grant`, as a rotating network does). Refreshes follow the scripted answers, then renew.
 */
export class FakeOAuthProvider implements OAuthProvider {
  readonly usesPkce = true;
  readonly scopes = ['tweet.read', 'tweet.write', 'offline.access'] as const;
  /** The token sets refresh was called with, in order. */
  readonly refreshCalls: TokenSet[] = [];
  /** Runs inside the next refresh, before it answers (another writer racing this one). */
  beforeNextRefresh?: () => Promise<void>;
  /** False: answers without a refresh token, as a network that does not rotate. */
  rotates = true;
  lifetimeMs = 2 * 60 * 60 * 1000;
  private readonly script: RefreshAnswer[] = [];
  private readonly liveRefreshTokens = new Set<string>();
  private issued = 0;

  constructor(private readonly clock: Clock) {}

  /** The next refreshes answer these, in order. */
  answerRefresh(...answers: RefreshAnswer[]): this {
    this.script.push(...answers);
    return this;
  }

  /** A token set as a code exchange would grant it, its refresh token live. */
  grant(overrides: Partial<TokenSet> = {}): TokenSet {
    const tokens = this.next();
    return { ...tokens, ...overrides };
  }

  authorizationUrl(request: AuthorizationUrlRequest): string {
    return `https://network.example/authorize?state=${request.state}`;
  }

  async exchangeCode(_exchange: CodeExchange, _signal: AbortSignal): Promise<TokenSet> {
    return this.next();
  }

  async refresh(tokens: TokenSet, signal: AbortSignal): Promise<TokenSet> {
    this.refreshCalls.push({ ...tokens });
    const hook = this.beforeNextRefresh;
    this.beforeNextRefresh = undefined;
    await hook?.();
    signal.throwIfAborted();
    const answer = this.script.shift() ?? 'renew';
    if (answer === 'unavailable') throw new OAuthUnavailableError('The token endpoint answered 503.', '503');
    const refreshToken = tokens.refreshToken;
    if (answer === 'refuse' || !refreshToken || !this.liveRefreshTokens.has(refreshToken)) {
      throw new GrantRefusedError('invalid_grant');
    }
    if (this.rotates) this.liveRefreshTokens.delete(refreshToken);
    const renewed = this.next();
    if (this.rotates) return renewed;
    this.liveRefreshTokens.delete(renewed.refreshToken ?? '');
    const { refreshToken: _none, ...withoutRefresh } = renewed;
    return withoutRefresh;
  }

  /** The user revoked the grant at the network: its refresh token no longer works. */
  async revoke(tokens: TokenSet, _signal?: AbortSignal): Promise<void> {
    if (tokens.refreshToken) this.liveRefreshTokens.delete(tokens.refreshToken);
  }

  async readProfile(_accessToken: string, _signal: AbortSignal): Promise<NetworkProfile> {
    return { networkUserId: '2244994945', handle: '@acme', displayName: 'Acme' };
  }

  private next(): TokenSet {
    this.issued += 1;
    const refreshToken = `refresh-${this.issued}`;
    this.liveRefreshTokens.add(refreshToken);
    return {
      accessToken: `access-${this.issued}`,
      refreshToken,
      expiresAt: new Date(this.clock.now() + this.lifetimeMs).toISOString(),
      scopes: [...this.scopes],
    };
  }
}
