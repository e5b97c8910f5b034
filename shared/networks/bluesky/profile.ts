import * as z from 'zod';
import { GrantRefusedError, type NetworkProfile, OAuthUnavailableError } from '../../ports/network-oauth.js';
import { unavailableWhenUnreachable } from '../oauth/unreachable.js';
import { isPdsAddressRefusal } from './pds-fetch.js';
import type { BlueskySession } from './session.js';
import { callXrpc } from './xrpc.js';

const describeRepo = z.object({ did: z.string(), handle: z.string().min(1) });
const profileRecord = z.object({ value: z.object({ displayName: z.string().optional() }) });

/**
 * Who the account is: its handle from the PDS's `com.atproto.repo.describeRepo` (the PDS checks the
 * handle both ways, `handleIsCorrect`), its display name from its `app.bsky.actor.profile/self`
 * record; both public reads of the account's own PDS. The DID is the stable id.
 */
export async function readBlueskyProfile(
  session: BlueskySession,
  fetchImpl: typeof fetch | undefined,
  signal: AbortSignal,
): Promise<NetworkProfile> {
  const caller = { serviceUrl: session.pds, signal, ...(fetchImpl && { fetch: fetchImpl }) };
  try {
    const repo = await callXrpc(caller, {
      method: 'GET',
      nsid: 'com.atproto.repo.describeRepo',
      query: { repo: session.did },
    });
    const described = describeRepo.safeParse(repo.body);
    if (!repo.ok || !described.success || described.data.did !== session.did) {
      throw new OAuthUnavailableError('Bluesky did not answer the profile read usably.', String(repo.status));
    }
    const record = await callXrpc(caller, {
      method: 'GET',
      nsid: 'com.atproto.repo.getRecord',
      query: { repo: session.did, collection: 'app.bsky.actor.profile', rkey: 'self' },
    });
    const displayName =
      (record.ok && profileRecord.safeParse(record.body).data?.value.displayName) || undefined;
    const handle = described.data.handle;
    return { networkUserId: session.did, handle: `@${handle}`, displayName: displayName ?? handle };
  } catch (error) {
    if (isPdsAddressRefusal(error)) throw new GrantRefusedError('pds_address_refused');
    throw unavailableWhenUnreachable(error, 'Bluesky');
  }
}
