import type { Platform } from '../../domain/platforms.js';

/**
 * Our OAuth callback for a network: the `redirect_uri` of the authorization request and of the code
 * exchange, which must be the same string. It is also what the network app's settings must list.
 */
export function callbackUrl(publicBaseUrl: string, platform: Platform): string {
  return `${publicBaseUrl}/v1/oauth/${platform}/callback`;
}
