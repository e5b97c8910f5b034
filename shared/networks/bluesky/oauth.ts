import * as oauth from 'oauth4webapi';
import {
  type AuthorizationUrlRequest,
  type ClientMetadata,
  type ClientMetadataRequest,
  type CodeExchange,
  GrantRefusedError,
  type NetworkProfile,
  type OAuthProvider,
  OAuthUnavailableError,
  type TokenSet,
} from '../../ports/network-oauth.js';
import { requireAppCredentials } from '../oauth/app-credentials.js';
import type { OAuthClientDeps } from '../oauth/client-deps.js';
import { asOAuthError, blueskyClient, challengeOf, connectKey, discover } from './auth-server.js';
import { clientMetadataOf } from './client-metadata.js';
import { dpopHandle, withNonceRetry } from './dpop.js';
import { pdsTrustsIssuer, resolveDid } from './identity.js';
import { requestOptions } from './insecure.js';
import type { PrivateEcJwk } from './keys.js';
import { BLUESKY_SCOPES } from './limits.js';
import { blueskyPdsFetch } from './pds-fetch.js';
import { readBlueskyProfile } from './profile.js';
import { type BlueskySession, decodeSession, encodeSession } from './session.js';

export interface BlueskyOAuthDeps extends OAuthClientDeps {
  /** BLUESKY_ENTRYWAY_URL: the authorization server a connect starts at (https://bsky.social). */
  entrywayUrl: string;
  /** BLUESKY_PLC_URL: where did:plc documents are resolved. */
  plcUrl: string;
  /**
   * The fetch of the calls to an account's PDS (its protected-resource document, the profile
   * read, a did:web document): the public-only one of pds-fetch.ts unless given. `fetch`, when a
   * test injects one, wins over both.
   */
  pdsFetch?: typeof fetch;
}

const APP = 'BLUESKY';

/**
 * OAuth for AT Protocol (https://atproto.com/specs/oauth) as a confidential client, on oauth4webapi:
 * PAR with PKCE and DPoP, private_key_jwt with the operator's ES256 key (the app's secret; the
 * client id is the URL of our client metadata document), then the token answer's `sub` checked:
 * its DID must resolve to a PDS whose authorization server is the issuer. Each session has its own
 * DPoP key, kept with its tokens (session.ts). Refresh tokens are single-use: each refresh answers
 * a new one, which the worker persists before anything else uses it.
 */
export function makeBlueskyOAuth(deps: BlueskyOAuthDeps): OAuthProvider {
  const now = deps.now ?? Date.now;
  const pdsFetch = deps.fetch ?? deps.pdsFetch ?? blueskyPdsFetch(deps.plcUrl);
  const identity = { plcUrl: deps.plcUrl, ...(deps.fetch && { fetch: deps.fetch }), pdsFetch };
  const app = async () => blueskyClient(await requireAppCredentials(deps.appCredentials, APP));

  /** The token answer as a TokenSet, after the checks the spec asks of a client. */
  const sessionOf = async (
    answer: oauth.TokenEndpointResponse,
    issuer: string,
    key: PrivateEcJwk,
    signal: AbortSignal,
    expectedDid?: string,
  ): Promise<TokenSet> => {
    const scopes = (answer.scope ?? '').split(' ').filter(Boolean);
    if (!scopes.includes('atproto')) throw new GrantRefusedError('atproto_scope_missing');
    const did = typeof answer.sub === 'string' ? answer.sub : '';
    if (!did.startsWith('did:') || (expectedDid !== undefined && did !== expectedDid)) {
      throw new GrantRefusedError('unexpected_sub');
    }
    const { pds } = await resolveDid(identity, did, signal);
    if (!(await pdsTrustsIssuer(identity, pds, issuer, signal)))
      throw new GrantRefusedError('issuer_mismatch');
    if (!answer.refresh_token)
      throw new OAuthUnavailableError('Bluesky answered no refresh token.', 'no_refresh_token');
    const session = (token: string): BlueskySession => ({ token, did, pds, issuer, key });
    return {
      accessToken: encodeSession(session(answer.access_token)),
      refreshToken: encodeSession(session(answer.refresh_token)),
      ...(answer.expires_in !== undefined && {
        expiresAt: new Date(now() + answer.expires_in * 1000).toISOString(),
      }),
      scopes,
    };
  };

  return {
    usesPkce: true,
    scopes: BLUESKY_SCOPES,

    authorizationUrl(): string {
      // AT Protocol servers take only pushed authorization requests: the connect flow pushes.
      throw new OAuthUnavailableError(
        'Bluesky takes only pushed authorization requests (pushedAuthorizationUrl).',
      );
    },

    async pushedAuthorizationUrl(request: AuthorizationUrlRequest, signal: AbortSignal): Promise<string> {
      if (!request.codeChallenge) throw new OAuthUnavailableError('Bluesky needs PKCE.');
      const codeChallenge = request.codeChallenge;
      const { client, authentication, key: clientKey } = await app();
      const as = await discover(deps.entrywayUrl, deps.fetch, signal);
      const dpop = await dpopHandle(client, connectKey(clientKey, codeChallenge));
      const parameters = {
        response_type: 'code',
        redirect_uri: request.redirectUri,
        scope: BLUESKY_SCOPES.join(' '),
        state: request.state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      };
      const pushed = await asOAuthError(() =>
        withNonceRetry(async () => {
          const response = await oauth.pushedAuthorizationRequest(as, client, authentication, parameters, {
            DPoP: dpop,
            ...requestOptions(deps.entrywayUrl, deps.fetch, signal),
          });
          return oauth.processPushedAuthorizationResponse(as, client, response);
        }),
      );
      if (!as.authorization_endpoint)
        throw new OAuthUnavailableError('Bluesky names no authorization endpoint.');
      const url = new URL(as.authorization_endpoint);
      url.searchParams.set('client_id', client.client_id);
      url.searchParams.set('request_uri', pushed.request_uri);
      return url.toString();
    },

    async exchangeCode(exchange: CodeExchange, signal: AbortSignal): Promise<TokenSet> {
      if (!exchange.codeVerifier) throw new GrantRefusedError('pkce_verifier_missing');
      const codeVerifier = exchange.codeVerifier;
      const { client, authentication, key: clientKey } = await app();
      const as = await discover(deps.entrywayUrl, deps.fetch, signal);
      const key = connectKey(clientKey, challengeOf(codeVerifier));
      const dpop = await dpopHandle(client, key);
      // The generic callback does not pass `iss` on: the code is good only at this server, with the
      // PAR's DPoP key and PKCE verifier, and the account's PDS must name this issuer (sessionOf).
      const callback = oauth.validateAuthResponse(
        as,
        client,
        new URLSearchParams({ code: exchange.code, iss: as.issuer }),
        oauth.skipStateCheck,
      );
      const answer = await asOAuthError(() =>
        withNonceRetry(async () => {
          const response = await oauth.authorizationCodeGrantRequest(
            as,
            client,
            authentication,
            callback,
            exchange.redirectUri,
            codeVerifier,
            { DPoP: dpop, ...requestOptions(as.issuer, deps.fetch, signal) },
          );
          return oauth.processAuthorizationCodeResponse(as, client, response);
        }),
      );
      return sessionOf(answer, as.issuer, key, signal);
    },

    async refresh(tokens: TokenSet, signal: AbortSignal): Promise<TokenSet> {
      const session = tokens.refreshToken ? decodeSession(tokens.refreshToken) : undefined;
      if (!session) throw new GrantRefusedError('no_refresh_token');
      const { client, authentication } = await app();
      const as = await discover(session.issuer, deps.fetch, signal);
      const dpop = await dpopHandle(client, session.key);
      const answer = await asOAuthError(() =>
        withNonceRetry(async () => {
          const response = await oauth.refreshTokenGrantRequest(as, client, authentication, session.token, {
            DPoP: dpop,
            ...requestOptions(as.issuer, deps.fetch, signal),
          });
          return oauth.processRefreshTokenResponse(as, client, response);
        }),
      );
      return sessionOf(answer, as.issuer, session.key, signal, session.did);
    },

    async revoke(tokens: TokenSet, signal: AbortSignal): Promise<void> {
      const session = tokens.refreshToken ? decodeSession(tokens.refreshToken) : undefined;
      if (!session) return;
      const { client, authentication } = await app();
      const as = await discover(session.issuer, deps.fetch, signal);
      if (!as.revocation_endpoint) return;
      await asOAuthError(async () => {
        const response = await oauth.revocationRequest(as, client, authentication, session.token, {
          ...requestOptions(as.issuer, deps.fetch, signal),
        });
        await oauth.processRevocationResponse(response);
      });
    },

    async clientMetadata(request: ClientMetadataRequest): Promise<ClientMetadata | undefined> {
      const credentials = await deps.appCredentials();
      return credentials && clientMetadataOf(credentials, request);
    },

    async readProfile(accessToken: string, signal: AbortSignal): Promise<NetworkProfile> {
      const session = decodeSession(accessToken);
      if (!session) throw new OAuthUnavailableError('The Bluesky session cannot be read.', 'bad_session');
      return readBlueskyProfile(session, pdsFetch, signal);
    },
  };
}
