/**
 * Why a connect did not end in a connected account: the `error` a redirect carries back to the
 * caller's `redirectUri` (with `error_description`), or what the result page says. The words are
 * ours, never the network's.
 */
export const CONNECT_ERRORS = {
  access_denied: 'The connection was declined on the network.',
  network_error: 'The network did not complete the authorization. Start connecting again.',
  grant_refused: 'The network refused the authorization code. Start connecting again.',
  temporarily_unavailable:
    'The network or the service could not complete the connection just now. Start again in a few minutes.',
  network_not_configured: 'Connecting accounts of this network is not configured on this deployment.',
  no_publishable_account:
    'The network granted no account this service can publish to (for example, no page you may create content on). Start again and pick one.',
  not_authorized:
    'The API key that started this connection may no longer connect accounts in this workspace.',
  server_error: 'Something went wrong on our side. Start connecting again.',
} as const;

export type ConnectErrorCode = keyof typeof CONNECT_ERRORS;
