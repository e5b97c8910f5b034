import { networkFetch } from '../http/network-fetch.js';
import { unavailableWhenUnreachable } from './unreachable.js';

export interface FormPost {
  url: string | URL;
  /** Sent as application/x-www-form-urlencoded (RFC 6749 §4.1.3, §6, RFC 7009 §2.1). */
  form: Record<string, string>;
  /** Headers besides Content-Type, as each network documents them (Accept, Cache-Control). */
  headers: Record<string, string>;
  /** The name OAuthUnavailableError gives the network when it cannot be reached. */
  network: string;
  signal: AbortSignal;
  fetch: typeof fetch | undefined;
}

/**
 * A token, refresh or revoke request: a form POST through networkFetch, where a network that could
 * not be reached is OAuthUnavailableError. The answer, whatever its status, is the caller's to read.
 */
export async function postForm(request: FormPost): Promise<Response> {
  try {
    return await networkFetch(
      request.url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...request.headers },
        body: new URLSearchParams(request.form).toString(),
        signal: request.signal,
      },
      request.fetch,
    );
  } catch (error) {
    throw unavailableWhenUnreachable(error, request.network);
  }
}
