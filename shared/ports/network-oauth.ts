/**
 * A network's OAuth, as the connect flow, the delivery worker and the refresh sweep use it. One
 * implementation per network (shared/networks/<network>/oauth.ts); every address it calls is
 * configurable (shared/runtime/network-config.ts). Every call honours its AbortSignal.
 */

/** What a network granted. Secrets: never logged, never returned, stored only encrypted. */
export interface TokenSet {
  accessToken: string;
  /** Absent when the network gives none (X without offline.access, LinkedIn for most apps). */
  refreshToken?: string;
  /** ISO 8601; absent when the network says nothing of expiry. */
  expiresAt?: string;
  /** ISO 8601; when the refresh token itself stops working, where the network says. */
  refreshExpiresAt?: string;
  /** The scopes granted (which may be fewer than those asked for). */
  scopes: string[];
}

/** Who the account is on the network. */
export interface NetworkProfile {
  /** The network's own stable user id: reconnecting the same id keeps the account's `acc_` id. */
  networkUserId: string;
  /** `@handle` where the network has one, else its vanity name or the display name. */
  handle: string;
  displayName: string;
  avatarUrl?: string;
}

/** One account a consent granted: its own tokens and who it is. */
export interface GrantedAccount {
  tokens: TokenSet;
  profile: NetworkProfile;
}

export interface AuthorizationUrlRequest {
  /**
   * The app's client id (NetworkDeps.appCredentials(), which is asynchronous: the connect flow
   * reads the credentials anyway, to answer 409 network_not_configured, and passes the id here).
   */
  clientId: string;
  /** Single-use, bound to tenant and workspace, valid 10 minutes (the connect flow's). */
  state: string;
  /** Our callback: `{base_url}/v1/oauth/{platform}/callback`. */
  redirectUri: string;
  /** S256 challenge of the verifier the connect flow keeps; sent only when `usesPkce`. */
  codeChallenge?: string;
  /**
   * False: the app is not approved for the scopes asked only for the metrics (`metricsOnlyScopes`),
   * so the consent page does not ask them (AppCredentials.askMetricsScopes). Absent: asked.
   */
  askMetricsScopes?: boolean;
  /** False: the app is not approved for the scopes only first comments need (AppCredentials.askCommentScopes). */
  askCommentScopes?: boolean;
  /** False: the app is not approved for the scopes only some platformOptions need (AppCredentials.askOptionScopes). */
  askOptionScopes?: boolean;
}

export interface CodeExchange {
  code: string;
  redirectUri: string;
  /** The PKCE verifier, when the provider uses PKCE. */
  codeVerifier?: string;
}

/**
 * The network refused a grant for good: a refresh token that is expired, revoked or already used
 * (`invalid_grant`), a code that is stale. The account must be reconnected.
 */
export class GrantRefusedError extends Error {
  override readonly name = 'GrantRefusedError';
  constructor(
    /** The network's own error code (`invalid_grant`), for `platformRawCode`; never its body. */
    readonly networkCode: string,
  ) {
    super(`The network refused the grant (${networkCode}).`);
  }
}

/** The network did not answer usably (5xx, time-out, a body we cannot read): try again later. */
export class OAuthUnavailableError extends Error {
  override readonly name = 'OAuthUnavailableError';
  constructor(
    message: string,
    readonly networkCode?: string,
  ) {
    super(message);
  }
}

/** Where our client metadata document and its keys are served (`{base_url}/v1/oauth/{platform}/…`). */
export interface ClientMetadataRequest {
  /** `…/client-metadata.json`: for such a network, the client id is this URL. */
  metadataUrl: string;
  /** `…/jwks.json`. */
  jwksUrl: string;
  /** `…/callback`. */
  redirectUri: string;
  /** The deployment's public base URL (`client_uri`). */
  publicBaseUrl: string;
}

/** A client metadata document and the public keys it names (never a private one). */
export interface ClientMetadata {
  document: Readonly<Record<string, unknown>>;
  jwks: { keys: readonly Readonly<Record<string, unknown>>[] };
}

export interface OAuthProvider {
  /** Whether the authorization request carries a PKCE S256 challenge. */
  readonly usesPkce: boolean;
  /** The scopes the service asks for. */
  readonly scopes: readonly string[];
  /** Of `scopes`, those asked only for the metrics: an app not approved for them connects without. */
  readonly metricsOnlyScopes?: readonly string[];
  authorizationUrl(request: AuthorizationUrlRequest): string;
  /**
   * For a network that takes the authorization request only pushed first (RFC 9126 PAR, which
   * answers the `request_uri` the consent URL carries): the consent URL, once pushed. When present,
   * the connect flow calls it instead of `authorizationUrl` (which such a network cannot answer).
   */
  pushedAuthorizationUrl?(request: AuthorizationUrlRequest, signal: AbortSignal): Promise<string>;
  /**
   * For a network whose servers fetch the client's metadata from the client (OAuth client ID
   * metadata documents: the client id is the document's URL): the document and the public keys the
   * client authenticates with, from the app's credentials. Served at
   * `{base_url}/v1/oauth/{platform}/client-metadata.json` and `…/jwks.json`; absent, those answer
   * 404. Undefined when the app has no credentials.
   */
  clientMetadata?(request: ClientMetadataRequest): Promise<ClientMetadata | undefined>;
  /** GrantRefusedError for a code the network refuses; OAuthUnavailableError when it cannot say. */
  exchangeCode(exchange: CodeExchange, signal: AbortSignal): Promise<TokenSet>;
  /**
   * A new token set from the current one. Where the network rotates refresh tokens (X: every
   * refresh), the answer's refresh token replaces the old one, which no longer works: the caller
   * persists it before anything else uses it. Absent for a network without refresh (then the
   * account needs reconnecting before `expiresAt`).
   */
  refresh?(tokens: TokenSet, signal: AbortSignal): Promise<TokenSet>;
  /** Revokes the grant at the network, where it can; a failure here never blocks a disconnect. */
  revoke?(tokens: TokenSet, signal: AbortSignal): Promise<void>;
  readProfile(accessToken: string, signal: AbortSignal): Promise<NetworkProfile>;
  /**
   * Where one consent grants several accounts (each with its own tokens): every one of them, read
   * with the consent's tokens. When present, the connect flow stores these instead of the profile;
   * an empty list (none the service may publish to) fails the connect `no_publishable_account`.
   */
  readAccounts?(tokens: TokenSet, signal: AbortSignal): Promise<readonly GrantedAccount[]>;
}
