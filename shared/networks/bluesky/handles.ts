import * as z from 'zod';
import type { HandleResolver } from './facets.js';
import { callXrpc, type XrpcCaller } from './xrpc.js';

const resolved = z.object({ did: z.string().startsWith('did:') });

/**
 * A mention's handle to its DID through the account's PDS (`com.atproto.identity.resolveHandle`).
 * A handle that does not resolve, or a PDS that does not answer, leaves the mention as text: a
 * post is not failed for a name it mentions.
 */
export function resolveHandleOn(caller: XrpcCaller): HandleResolver {
  return async (handle) => {
    try {
      const answer = await callXrpc(caller, {
        method: 'GET',
        nsid: 'com.atproto.identity.resolveHandle',
        query: { handle },
      });
      return answer.ok ? resolved.safeParse(answer.body).data?.did : undefined;
    } catch {
      return undefined;
    }
  };
}
