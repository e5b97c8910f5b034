import * as oauth from 'oauth4webapi';
import { networkFetch } from '../http/network-fetch.js';

/**
 * The options every oauth4webapi call of ours takes: its requests go through networkFetch (so a
 * failure says whether it can have reached the network), and plain http is allowed for loopback
 * hosts only, where the fakes listen (the real servers are https, which oauth4webapi requires).
 */
export function requestOptions(
  url: string,
  fetchImpl: typeof fetch | undefined,
  signal: AbortSignal,
): { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]?: true; signal: AbortSignal } {
  const customFetch: typeof fetch = (input, init) =>
    networkFetch(input instanceof Request ? input.url : input, { ...init, signal }, fetchImpl);
  return {
    [oauth.customFetch]: customFetch,
    ...(isLoopbackHttp(url) && { [oauth.allowInsecureRequests]: true as const }),
    signal,
  };
}

export function isLoopbackHttp(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  } catch {
    return false;
  }
}
