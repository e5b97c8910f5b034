import * as z from 'zod';
import { NetworkNotConfiguredError, NotFoundError } from '../../domain/errors.js';
import { PLATFORMS, type Platform } from '../../domain/platforms.js';
import { defineOperation } from '../../http/operation.js';
import type { ClientMetadata } from '../../ports/network-oauth.js';
import type { ServiceDeps } from '../../runtime/deps.js';
import { callbackUrl } from '../../services/accounts/callback-url.js';
import { noQuery } from '../common-schemas.js';

const params = z.object({
  platform: z.enum(PLATFORMS).describe('The network whose servers fetch our client metadata.'),
});

const NOT_SERVED = "This network's servers do not fetch a client metadata document.";

/** The network's document and keys, from its app's credentials: 404 where it has none to serve. */
async function metadataOf(deps: ServiceDeps, platform: Platform): Promise<ClientMetadata> {
  const oauth = deps.networks.get(platform)?.oauth;
  if (!oauth?.clientMetadata || !deps.publicBaseUrl) throw new NotFoundError(NOT_SERVED);
  const base = deps.publicBaseUrl.replace(/\/$/, '');
  const metadata = await oauth.clientMetadata({
    metadataUrl: `${base}/v1/oauth/${platform}/client-metadata.json`,
    jwksUrl: `${base}/v1/oauth/${platform}/jwks.json`,
    redirectUri: callbackUrl(base, platform),
    publicBaseUrl: base,
  });
  if (!metadata) throw new NetworkNotConfiguredError(platform);
  return metadata;
}

const shared = {
  tag: 'Accounts',
  auth: 'none',
  rateLimitFamily: 'other',
  workspace: 'none',
  resources: ['network-apps'],
  successStatus: 200,
  // 404: the network's servers fetch no document (or the deployment knows no public address);
  // 409: they do, and the deployment has no app for the network.
  errors: ['not_found', 'network_not_configured'],
} as const;

/**
 * Our OAuth client metadata document, for a network whose authorization servers fetch it (the
 * client id is its URL: AT Protocol OAuth). Not for API clients, and not an MCP tool (no API key).
 */
export const oauthClientMetadata = defineOperation({
  ...shared,
  id: 'oauthClientMetadata',
  method: 'GET',
  path: '/v1/oauth/{platform}/client-metadata.json',
  summary: "Our OAuth client metadata document, for a network's authorization server",
  description:
    "Not called by API clients: a network whose authorization servers fetch the client's metadata (OAuth client ID metadata documents, where the client id is this URL) reads it here when an account is connected. It takes no API key. 404 for a network that fetches none.",
  successDescription: 'The client metadata document (JSON).',
  schemas: {
    params,
    query: noQuery,
    response: z.record(z.string(), z.unknown()).describe('The client metadata document.'),
  },
  async handler({ deps }, request) {
    return { ...(await metadataOf(deps, request.params.platform)).document };
  },
});

/** The public keys our client authenticates with at such a network (private_key_jwt). */
export const oauthClientJwks = defineOperation({
  ...shared,
  id: 'oauthClientJwks',
  method: 'GET',
  path: '/v1/oauth/{platform}/jwks.json',
  summary: "The public keys of our OAuth client, for a network's authorization server",
  description:
    'Not called by API clients: the JSON Web Key Set our client metadata document names (`jwks_uri`), with the public keys our client signs its authentication with. It takes no API key. 404 for a network that fetches none.',
  successDescription: 'The key set (JSON), public keys only.',
  schemas: {
    params,
    query: noQuery,
    response: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).describe('A JSON Web Key Set.'),
  },
  async handler({ deps }, request) {
    const { jwks } = await metadataOf(deps, request.params.platform);
    return { keys: jwks.keys.map((key) => ({ ...key })) };
  },
});
