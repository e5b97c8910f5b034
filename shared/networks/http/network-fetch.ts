/**
 * The one way a connector or an OAuth client calls a network, so that every failure says whether
 * the request can have reached it:
 * - RequestNotSentError: it certainly did not (DNS failure, connection refused, a connect
 *   time-out): retrying cannot post twice;
 * - NoAnswerError: it may have (a reset or time-out after sending, an abort): the outcome is
 *   unknown, and a publish is looked up on the network, never blindly sent again.
 * Any HTTP answer, 4xx and 5xx included, is returned as a Response for the connector to map.
 */

/** Errors from undici's connect phase: nothing was written to the network. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

export class RequestNotSentError extends Error {
  override readonly name = 'RequestNotSentError';
  constructor(
    readonly code: string,
    options?: { cause: unknown },
  ) {
    super(`The request did not reach the network (${code}).`, options);
  }
}

export class NoAnswerError extends Error {
  override readonly name = 'NoAnswerError';
  constructor(
    readonly code: string,
    options?: { cause: unknown },
  ) {
    super(`The request may have reached the network, and no answer came (${code}).`, options);
  }
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export async function networkFetch(
  url: string | URL,
  init: RequestInit & { signal: AbortSignal },
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  try {
    return await fetchImpl(url, init);
  } catch (error) {
    if (init.signal.aborted) throw new NoAnswerError('ABORTED', { cause: error });
    const code = causeCode(error) ?? 'UNKNOWN';
    if (NOT_SENT_CODES.has(code)) throw new RequestNotSentError(code, { cause: error });
    throw new NoAnswerError(code, { cause: error });
  }
}
