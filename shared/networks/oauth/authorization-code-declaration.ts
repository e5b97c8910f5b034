import type { AppCredentials } from '../../ports/app-credentials.js';
import type { NetworkProfile, TokenSet } from '../../ports/network-oauth.js';

/** The two grants a token endpoint is asked for (RFC 6749 §4.1.3, §6). */
export type GrantType = 'authorization_code' | 'refresh_token';

/** An OAuth error answer to a grant request, as the network's refusal rule weighs it. */
export interface GrantError {
  grantType: GrantType;
  status: number;
  /** The network's error code (`invalid_grant`, or Instagram's Graph code). */
  error: string;
}

/** What a network-specific reading of a token answer has to hand. */
export interface TokenAnswerContext {
  app: AppCredentials;
  /** Epoch ms when the answer came: lifetimes count from it. */
  issuedAt: number;
  /** The token set refreshed, if any. */
  previous?: TokenSet | undefined;
  signal: AbortSignal;
}

/**
 * A network's OAuth 2.0 authorization code flow, declared as what differs from RFC 6749: the block
 * (authorization-code.ts) does the rest. Every address is configured (network-config.ts).
 */
export interface AuthorizationCodeDeclaration {
  /** How errors name the network and its app (YouTube's grant is Google's). */
  network: string;
  scopes: readonly string[];
  /**
   * Of `scopes`, those asked only for the metrics: left out for an app the operator says is not
   * approved for them (AppCredentials.askMetricsScopes false; scopes-to-ask.ts).
   */
  metricsOnlyScopes?: readonly string[];
  /**
   * Of `scopes`, those asked only for first comments: left out for an app the operator says is not
   * approved for them (AppCredentials.askCommentScopes false; scopes-to-ask.ts).
   */
  commentOnlyScopes?: readonly string[];
  /** Of `scopes`, those only some platformOptions need (AppCredentials.askOptionScopes false leaves them out). */
  optionOnlyScopes?: readonly string[];
  /** Whether the consent page gets an S256 challenge and the code exchange its verifier (RFC 7636). */
  usesPkce: boolean;
  /** What the app's id is called in every request: client_id, or TikTok's client_key. */
  clientIdParameter?: string;
  authorize: {
    url: string;
    /** How the scopes are joined: a space (RFC 6749 §3.3), or a comma where the network wants one. */
    scopeDelimiter?: ' ' | ',';
    /** The network's own parameters, after the standard ones (Google's access_type). */
    parameters?: ReadonlyArray<readonly [string, string]>;
  };
  token: {
    url: string;
    /** HTTP Basic (RFC 6749 §2.3.1), or the id and secret in the form. */
    clientAuthentication: 'basic' | 'form';
    /** How the answer's `scope` separates scopes; spaces (the RFC) by default. */
    grantedScopeSeparator?: RegExp;
    /** What an answer without `scope` granted: what was asked for, or nothing said (kept from before). */
    withoutScope: 'asked' | 'unknown';
    /** The answer's field for the refresh token's lifetime, where the network says it. */
    refreshLifetimeField?: string;
    /** The network may answer an OAuth error with 200 (TikTok): every answer is read for `error`. */
    errorsInOkAnswers?: boolean;
    /** The error code of a refusal's body; the RFC's `error` by default. */
    errorCode?(body: unknown): string | undefined;
    /** Whether an error refuses the grant for good (the account must reconnect); invalid_grant by default. */
    refusesGrant?(error: GrantError): boolean;
    /** A token answer that is not RFC 6749 §5.1 (Instagram's short-lived token), read the network's way. */
    readAnswer?(body: unknown, context: TokenAnswerContext): Promise<TokenSet>;
  };
  /** Headers every OAuth request carries besides Accept: application/json (TikTok's Cache-Control). */
  headers?: Record<string, string>;
  /**
   * The refresh: the refresh_token grant at the token endpoint by default; the network's own where
   * it has no refresh token (Instagram), `false` where there is no refresh at all.
   */
  refresh?: false | ((tokens: TokenSet, signal: AbortSignal) => Promise<TokenSet>);
  /** RFC 7009 revocation, where the network has it. */
  revoke?: {
    url: string;
    /** The tokens to revoke, one request each, in order (the refresh token first where it lasts). */
    tokens(tokens: TokenSet): string[];
    /** Google's revoke endpoint takes the token alone; others authenticate as at the token endpoint. */
    unauthenticated?: boolean;
  };
  readProfile(accessToken: string, signal: AbortSignal): Promise<NetworkProfile>;
}

/** The refusal rule of networks that answer a stale code with any error but a refused client. */
export function refusesAllButClientErrors(error: GrantError): boolean {
  if (error.grantType === 'refresh_token') return error.error === 'invalid_grant';
  return error.error !== 'invalid_client';
}
