import * as z from 'zod';
import { isPrivateEcJwk, type PrivateEcJwk } from './keys.js';

/**
 * A Bluesky session as our token vault keeps it: the TokenSet's access and refresh token strings
 * are each a JSON bundle of the network's token with what using it needs (the account's DID, its
 * PDS, the authorization server that issued it, and the session's DPoP private key, which the
 * tokens are bound to). The vault seals the strings whole, so the key is as secret as the tokens;
 * TokenSet and AccessCredentials keep their shape. Only this folder reads or writes the bundles.
 */
export interface BlueskySession {
  /** The network's own token (access or refresh). */
  token: string;
  /** The account's DID (`did:plc:…`), the `sub` of the token answer. */
  did: string;
  /** The account's PDS, where every write goes (its DID document's `#atproto_pds`). */
  pds: string;
  /** The authorization server's issuer, where the session is refreshed. */
  issuer: string;
  /** The session's DPoP key (one per session, never shared between sessions). */
  key: PrivateEcJwk;
}

const bundleSchema = z.object({
  v: z.literal(1),
  token: z.string().min(1),
  did: z.string().startsWith('did:'),
  pds: z.url(),
  issuer: z.url(),
  key: z.custom<PrivateEcJwk>(isPrivateEcJwk),
});

export function encodeSession(session: BlueskySession): string {
  const { token, did, pds, issuer, key } = session;
  return JSON.stringify({ v: 1, token, did, pds, issuer, key });
}

/** The session a token string holds, or undefined for one that is not ours (then the account reconnects). */
export function decodeSession(value: string): BlueskySession | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  const bundle = bundleSchema.safeParse(parsed);
  if (!bundle.success) return undefined;
  const { token, did, pds, issuer, key } = bundle.data;
  return { token, did, pds, issuer, key };
}
