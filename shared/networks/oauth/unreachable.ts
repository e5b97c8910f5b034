import { OAuthUnavailableError } from '../../ports/network-oauth.js';
import { readJson } from '../http/json-answer.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';

/**
 * In the OAuth port's terms, a network that could not be reached (or broke off its answer) is
 * unavailable: the grant may be tried again later. Any other error is passed on as it is.
 */
export function unavailableWhenUnreachable(error: unknown, network: string): unknown {
  if (error instanceof RequestNotSentError || error instanceof NoAnswerError) {
    return new OAuthUnavailableError(`${network} could not be reached.`, error.code);
  }
  return error;
}

/** readJson for an OAuth answer: a body cut off makes the network unavailable. */
export async function readOAuthJson(response: Response, network: string): Promise<unknown> {
  try {
    return await readJson(response);
  } catch (error) {
    throw unavailableWhenUnreachable(error, network);
  }
}
