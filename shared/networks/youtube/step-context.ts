import type { MediaBytes } from '../../ports/media-bytes.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import type { YouTubeApi } from './api.js';
import type { GoogleErrorFacts } from './errors.js';

/** What a step after the upload needs: the API, its addresses, the token and the attempt's signal. */
export interface StepContext {
  api: YouTubeApi;
  apiUrl: string;
  uploadUrl: string;
  accessToken: string;
  signal: AbortSignal;
  bytes?: MediaBytes;
}

/**
 * How one call of a step ended: `answered` (YouTube said something: a resource or an error), or
 * no answer, either `not_sent` (nothing reached YouTube) or `no_answer` (it may have acted).
 */
export type CallResult =
  | { kind: 'answered'; response: Response }
  | { kind: 'not_sent' }
  | { kind: 'no_answer' };

export async function callOnce(send: () => Promise<Response>): Promise<CallResult> {
  try {
    return { kind: 'answered', response: await send() };
  } catch (error) {
    if (error instanceof RequestNotSentError) return { kind: 'not_sent' };
    if (error instanceof NoAnswerError) return { kind: 'no_answer' };
    throw error;
  }
}

/** Google's answers worth another try later: its server errors and short throttling. */
export function isPassing(facts: GoogleErrorFacts): boolean {
  return (
    facts.status >= 500 ||
    facts.status === 429 ||
    facts.reason === 'rateLimitExceeded' ||
    facts.reason === 'userRateLimitExceeded' ||
    facts.reason === 'uploadRateLimitExceeded' ||
    facts.reason === 'backendError'
  );
}
