import type { AppCredentials } from '../../ports/app-credentials.js';

/** How one request authenticates the app: form fields, headers, or neither. */
export interface ClientAuthentication {
  form: Record<string, string>;
  headers: Record<string, string>;
}

/** A request that does not authenticate the app (Google's revocation takes the token alone). */
export const NO_CLIENT_AUTHENTICATION: ClientAuthentication = { form: {}, headers: {} };

/**
 * The app's credentials as RFC 6749 §2.3.1 allows: HTTP Basic with the form-encoded id and secret,
 * or both in the form under the network's name for the id (client_id, TikTok's client_key).
 */
export function clientAuthentication(
  app: AppCredentials,
  method: 'basic' | 'form',
  idParameter: string,
): ClientAuthentication {
  if (method === 'form')
    return { form: { [idParameter]: app.clientId, client_secret: app.clientSecret }, headers: {} };
  const credentials = `${formUrlEncode(app.clientId)}:${formUrlEncode(app.clientSecret)}`;
  return { form: {}, headers: { Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` } };
}

/** application/x-www-form-urlencoded as RFC 6749 Appendix B has it, for the Basic credentials. */
function formUrlEncode(value: string): string {
  return encodeURIComponent(value).replace(/[-_.!~*'()]|%20/g, (part) =>
    part === '%20' ? '+' : `%${part.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
