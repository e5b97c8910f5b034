import type { NetworkFactory } from '../network.js';
import { makeXConnector } from './connector.js';
import { makeXOAuth } from './oauth.js';

/**
 * The short-message network (X API v2, platform `twitter`, alias `x`): its OAuth (oauth.ts) and
 * its connector (connector.ts), on X_API_URL and X_AUTHORIZE_URL with the X app's credentials.
 */
export const makeXNetwork: NetworkFactory = (deps) => ({
  platform: 'twitter',
  app: 'X',
  oauth: makeXOAuth({
    apiUrl: deps.endpoints.X_API_URL,
    authorizeUrl: deps.endpoints.X_AUTHORIZE_URL,
    appCredentials: deps.appCredentials,
    ...(deps.fetch && { fetch: deps.fetch }),
  }),
  connector: makeXConnector({
    apiUrl: deps.endpoints.X_API_URL,
    ...(deps.fetch && { fetch: deps.fetch }),
  }),
});
