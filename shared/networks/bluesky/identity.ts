import * as z from 'zod';
import { GrantRefusedError, OAuthUnavailableError } from '../../ports/network-oauth.js';
import { readJson } from '../http/json-answer.js';
import { networkFetch } from '../http/network-fetch.js';
import { unavailableWhenUnreachable } from '../oauth/unreachable.js';
import { isCallablePds } from './pds-address.js';
import { isPdsAddressRefusal } from './pds-fetch.js';

const NETWORK = 'Bluesky';

/** The part of a DID document we read (https://atproto.com/specs/did). */
const didDocument = z.object({
  id: z.string(),
  alsoKnownAs: z.array(z.string()).optional(),
  service: z.array(z.object({ id: z.string(), type: z.string(), serviceEndpoint: z.unknown() })).optional(),
});

const protectedResource = z.object({ authorization_servers: z.array(z.string()).min(1) });

export interface ResolvedIdentity {
  did: string;
  /** The PDS's URL, without a trailing slash. */
  pds: string;
  /** `at://<handle>` of the document, when it names one (not verified: the profile read is). */
  handle?: string;
}

export interface IdentityDeps {
  /** BLUESKY_PLC_URL: https://plc.directory, or a fake. */
  plcUrl: string;
  /** The PLC directory's fetch (the operator's own host). */
  fetch?: typeof fetch;
  /** The fetch of hosts a DID names (a did:web host, the PDS): the public-only one (pds-fetch.ts). */
  pdsFetch: typeof fetch;
}

async function getJson(
  fetchImpl: typeof fetch | undefined,
  url: string,
  signal: AbortSignal,
): Promise<{ status: number; body: unknown }> {
  try {
    const response = await networkFetch(
      url,
      { headers: { Accept: 'application/json' }, signal, redirect: 'error' },
      fetchImpl,
    );
    return { status: response.status, body: await readJson(response) };
  } catch (error) {
    // A host at a non-public address is the account's doing: the grant is refused, not retried.
    if (isPdsAddressRefusal(error)) throw new GrantRefusedError('pds_address_refused');
    throw unavailableWhenUnreachable(error, NETWORK);
  }
}

/**
 * The PDS of a DID, from its DID document: did:plc through the PLC directory, did:web through
 * `https://<host>/.well-known/did.json` (https://atproto.com/specs/did). The `#atproto_pds`
 * service of type `AtprotoPersonalDataServer`.
 */
export async function resolveDid(
  deps: IdentityDeps,
  did: string,
  signal: AbortSignal,
): Promise<ResolvedIdentity> {
  let url: string;
  let fetchImpl: typeof fetch | undefined;
  if (did.startsWith('did:plc:')) {
    url = `${deps.plcUrl.replace(/\/$/, '')}/${encodeURIComponent(did)}`;
    fetchImpl = deps.fetch;
  } else if (/^did:web:[a-zA-Z0-9.-]+$/.test(did) && isCallablePds(`https://${did.slice(8)}`, deps.plcUrl)) {
    url = `https://${did.slice('did:web:'.length)}/.well-known/did.json`;
    fetchImpl = deps.pdsFetch;
  } else
    throw new OAuthUnavailableError(
      'The Bluesky account has a DID of a kind we cannot resolve.',
      'unsupported_did',
    );
  const answer = await getJson(fetchImpl, url, signal);
  const document = didDocument.safeParse(answer.body);
  if (answer.status !== 200 || !document.success || document.data.id !== did) {
    throw new OAuthUnavailableError('The DID of the Bluesky account did not resolve.', String(answer.status));
  }
  const service = document.data.service?.find(
    (entry) =>
      (entry.id === '#atproto_pds' || entry.id === `${did}#atproto_pds`) &&
      entry.type === 'AtprotoPersonalDataServer',
  );
  if (typeof service?.serviceEndpoint !== 'string' || !URL.canParse(service.serviceEndpoint)) {
    throw new OAuthUnavailableError('The Bluesky account names no PDS in its DID document.', 'no_pds');
  }
  if (!isCallablePds(service.serviceEndpoint, deps.plcUrl)) {
    throw new GrantRefusedError('pds_address_refused');
  }
  const handle = document.data.alsoKnownAs?.find((name) => name.startsWith('at://'))?.slice('at://'.length);
  return { did, pds: service.serviceEndpoint.replace(/\/$/, ''), ...(handle && { handle }) };
}

/**
 * Whether the PDS says that `issuer` is its authorization server (its
 * `/.well-known/oauth-protected-resource`): the spec requires the client to check, after the token
 * answer, that the account's PDS trusts the server that issued the tokens.
 */
export async function pdsTrustsIssuer(
  deps: IdentityDeps,
  pds: string,
  issuer: string,
  signal: AbortSignal,
): Promise<boolean> {
  const answer = await getJson(deps.pdsFetch, `${pds}/.well-known/oauth-protected-resource`, signal);
  const parsed = protectedResource.safeParse(answer.body);
  if (answer.status !== 200 || !parsed.success) {
    throw new OAuthUnavailableError(
      'The PDS of the Bluesky account did not name its authorization server.',
      String(answer.status),
    );
  }
  return parsed.data.authorization_servers.some((server) => sameOrigin(server, issuer));
}

function sameOrigin(a: string, b: string): boolean {
  return (
    URL.canParse(a) &&
    URL.canParse(b) &&
    new URL(a).href.replace(/\/$/, '') === new URL(b).href.replace(/\/$/, '')
  );
}
