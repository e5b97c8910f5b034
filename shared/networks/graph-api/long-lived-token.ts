import * as z from 'zod';
import { GrantRefusedError, OAuthUnavailableError, type TokenSet } from '../../ports/network-oauth.js';
import { networkFetch } from '../http/network-fetch.js';
import type { TokenAnswerContext } from '../oauth/authorization-code-declaration.js';
import { readOAuthJson, unavailableWhenUnreachable } from '../oauth/unreachable.js';

// Meta's long-lived user tokens, as the Graph hosts with their own login hand them out: the code's
// short-lived token (1 hour) is at once exchanged for a long-lived one (about 60 days, with the app
// secret), which is refreshed with itself. There is no refresh token, so the token set carries the
// long-lived token as its `refreshToken` too, and `refreshExpiresAt` is the token's own expiry: an
// expired long-lived token cannot be refreshed, the account is reconnected.

/** What one network's long-lived tokens are: its host, its grant types, its lifetimes. */
export interface LongLivedTokenRules {
  /** How OAuthUnavailableError names the network (and its app). */
  network: string;
  /** The Graph host, unversioned: `{it}/access_token` exchanges, `{it}/refresh_access_token` refreshes. */
  graphUrl: string;
  /** The `grant_type` of the exchange and of the refresh (each host has its own prefix). */
  grantTypes: { exchange: string; refresh: string };
  /** How long a long-lived token lives when the answer does not say. */
  lifetimeSeconds: number;
  /** Meta refreshes a long-lived token only once it is this old. */
  refreshMinAgeMs: number;
  /** A refusal's code, as the network's answers carry it (190: a token refused for good). */
  errorCode: (body: unknown) => string | undefined;
  fetch?: typeof fetch | undefined;
  now: () => number;
}

const LongLived = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive().optional(),
});

/** The long-lived token's exchange and refresh: GET requests on the Graph host, unversioned. */
export class LongLivedTokens {
  constructor(private readonly rules: LongLivedTokenRules) {}

  /** Exchanges the code's short-lived token for a long-lived one, holding `scopes`. */
  async exchange(shortLivedToken: string, scopes: string[], context: TokenAnswerContext): Promise<TokenSet> {
    const url = new URL(`${this.rules.graphUrl}/access_token`);
    url.searchParams.set('grant_type', this.rules.grantTypes.exchange);
    url.searchParams.set('client_secret', context.app.clientSecret);
    url.searchParams.set('access_token', shortLivedToken);
    const exchanged = await this.get(url, context.signal);
    if (!exchanged.ok) {
      const code = exchanged.status < 500 ? await this.refusalCode(exchanged) : undefined;
      throw new OAuthUnavailableError(
        `${this.rules.network} refused the long-lived token exchange (HTTP ${exchanged.status}).`,
        code,
      );
    }
    return this.tokenSet(exchanged, scopes, 'the long-lived token exchange');
  }

  /**
   * The refresh grant with the long-lived token itself. Meta refuses a token younger than
   * `refreshMinAgeMs`, so such a token is returned as it is (it has most of its life left anyway);
   * its age is told from its expiry (issued `lifetimeSeconds` before it). An expired or revoked
   * token is refused for good (GrantRefusedError: the account is disconnected and must be reconnected).
   */
  async refresh(tokens: TokenSet, signal: AbortSignal): Promise<TokenSet> {
    const token = tokens.refreshToken ?? tokens.accessToken;
    if (tokens.expiresAt) {
      const expiresAt = Date.parse(tokens.expiresAt);
      if (expiresAt <= this.rules.now()) throw new GrantRefusedError('token_expired');
      const issuedAt = expiresAt - this.rules.lifetimeSeconds * 1000;
      if (this.rules.now() - issuedAt < this.rules.refreshMinAgeMs) return tokens;
    }
    const url = new URL(`${this.rules.graphUrl}/refresh_access_token`);
    url.searchParams.set('grant_type', this.rules.grantTypes.refresh);
    url.searchParams.set('access_token', token);
    const response = await this.get(url, signal);
    if (response.ok) return this.tokenSet(response, tokens.scopes, 'the token refresh');
    const code = response.status < 500 ? await this.refusalCode(response) : undefined;
    if (code === '190') throw new GrantRefusedError(code);
    throw new OAuthUnavailableError(
      `${this.rules.network} refused the token refresh (HTTP ${response.status}).`,
      code,
    );
  }

  private async get(url: URL, signal: AbortSignal): Promise<Response> {
    try {
      return await networkFetch(url, { method: 'GET', signal }, this.rules.fetch);
    } catch (error) {
      throw unavailableWhenUnreachable(error, this.rules.network);
    }
  }

  private async refusalCode(response: Response): Promise<string | undefined> {
    return this.rules.errorCode(await readOAuthJson(response, this.rules.network));
  }

  /** The long-lived token set from an exchange or refresh answer. */
  private async tokenSet(response: Response, scopes: string[], what: string): Promise<TokenSet> {
    const parsed = LongLived.safeParse(await readOAuthJson(response, this.rules.network));
    if (!parsed.success)
      throw new OAuthUnavailableError(`${this.rules.network} answered ${what} unreadably.`);
    const expiresAt = new Date(
      this.rules.now() + (parsed.data.expires_in ?? this.rules.lifetimeSeconds) * 1000,
    ).toISOString();
    return {
      accessToken: parsed.data.access_token,
      refreshToken: parsed.data.access_token,
      expiresAt,
      refreshExpiresAt: expiresAt,
      scopes,
    };
  }
}
