import { OAuthUnavailableError } from '../../ports/network-oauth.js';
import { networkFetch } from '../http/network-fetch.js';
import { readOAuthJson, unavailableWhenUnreachable } from './unreachable.js';

export interface ProfileRequest {
  url: string | URL;
  accessToken: string;
  /** POST where the network reads the profile that way (TikTok's creator_info). */
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** How OAuthUnavailableError names the network. */
  network: string;
  signal: AbortSignal;
  fetch: typeof fetch | undefined;
}

/**
 * A profile read with the new access token: its JSON body, for the network to validate. A network
 * not reached, a refusal or a body cut off is OAuthUnavailableError (the connect flow says so, and
 * the refusal's body is not passed on).
 */
export async function readProfileJson(request: ProfileRequest): Promise<unknown> {
  let response: Response;
  try {
    response = await networkFetch(
      request.url,
      {
        method: request.method ?? 'GET',
        headers: { Authorization: `Bearer ${request.accessToken}`, ...request.headers },
        signal: request.signal,
      },
      request.fetch,
    );
  } catch (error) {
    throw unavailableWhenUnreachable(error, request.network);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new OAuthUnavailableError(`${request.network} refused the profile read (HTTP ${response.status}).`);
  }
  return readOAuthJson(response, request.network);
}
