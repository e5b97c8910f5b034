import * as z from 'zod';
import { GrantRefusedError, OAuthUnavailableError, type TokenSet } from '../../ports/network-oauth.js';
import { isRecord } from '../http/json-answer.js';
import type {
  AuthorizationCodeDeclaration,
  GrantType,
  TokenAnswerContext,
} from './authorization-code-declaration.js';
import { oauthErrorCode } from './error-answer.js';
import { scopesToAsk } from './scopes-to-ask.js';
import { StandardTokenAnswer, tokenSetFromAnswer } from './token-answer.js';
import { readOAuthJson } from './unreachable.js';

const RefreshLifetime = z.number().int().positive().optional();

/** What a grant request was, for its answer's reading. */
export interface GrantRequest extends TokenAnswerContext {
  grantType: GrantType;
}

/**
 * A token endpoint's answer in the port's terms: a token set; GrantRefusedError for an error the
 * network's rule says refuses the grant for good; OAuthUnavailableError for anything else (a 5xx,
 * a refused client, an answer that cannot be read). The network's error description is never kept.
 */
export async function readGrantAnswer(
  declaration: AuthorizationCodeDeclaration,
  response: Response,
  request: GrantRequest,
): Promise<TokenSet> {
  const { network, token } = declaration;
  const what = request.grantType === 'refresh_token' ? 'the refresh' : 'the code exchange';
  if (response.status >= 500) {
    await response.body?.cancel();
    throw new OAuthUnavailableError(`${network} failed ${what} (HTTP ${response.status}).`);
  }
  const body = await readOAuthJson(response, network);
  const error =
    response.ok && !token.errorsInOkAnswers ? undefined : (token.errorCode ?? oauthErrorCode)(body);
  if (error) {
    const refuses = token.refusesGrant ?? ((refusal) => refusal.error === 'invalid_grant');
    if (refuses({ grantType: request.grantType, status: response.status, error })) {
      throw new GrantRefusedError(error);
    }
    throw new OAuthUnavailableError(`${network} refused ${what} (HTTP ${response.status}).`, error);
  }
  if (!response.ok) throw new OAuthUnavailableError(`${network} refused ${what} (HTTP ${response.status}).`);
  if (token.readAnswer) return token.readAnswer(body, request);
  return standardTokenSet(declaration, body, request);
}

/** An RFC 6749 §5.1 answer as a TokenSet, with the network's scope separator and refresh lifetime. */
function standardTokenSet(
  declaration: AuthorizationCodeDeclaration,
  body: unknown,
  request: GrantRequest,
): TokenSet {
  const { token } = declaration;
  const answer = StandardTokenAnswer.safeParse(body);
  const lifetimeField = token.refreshLifetimeField;
  const lifetime = lifetimeField
    ? RefreshLifetime.safeParse(isRecord(body) ? body[lifetimeField] : undefined)
    : undefined;
  if (!answer.success || lifetime?.success === false) {
    throw new OAuthUnavailableError(`${declaration.network} answered the token request unreadably.`);
  }
  return tokenSetFromAnswer(answer.data, {
    issuedAt: request.issuedAt,
    previous: request.previous,
    scopeSeparator: token.grantedScopeSeparator ?? /\s+/,
    // What was asked: this app's choice of scopes, as the consent page was sent.
    defaultScopes: token.withoutScope === 'asked' ? scopesToAsk(declaration, request.app) : [],
    // Only networks that say how long a refresh token lives get a refreshExpiresAt.
    ...(lifetime && { refreshLifetime: { expiresIn: lifetime.data } }),
  });
}
