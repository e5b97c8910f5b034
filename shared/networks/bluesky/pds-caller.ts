import type { DPoPHandle } from 'oauth4webapi';
import { dpopHandle } from './dpop.js';
import type { BlueskySession } from './session.js';
import type { XrpcCaller } from './xrpc.js';

/**
 * DPoP handles by session key, kept while the process lives (a warm function's next invocations):
 * each remembers the PDS's latest nonce, so a publish does not start with a use_dpop_nonce refusal.
 */
const handles = new Map<string, Promise<DPoPHandle>>();
const MAX_HANDLES = 200;

function sessionHandle(session: BlueskySession): Promise<DPoPHandle> {
  const id = `${session.did} ${session.key.x}`;
  let handle = handles.get(id);
  if (!handle) {
    if (handles.size >= MAX_HANDLES) handles.delete(handles.keys().next().value ?? '');
    handle = dpopHandle({ client_id: session.did }, session.key);
    handles.set(id, handle);
  }
  return handle;
}

/** The session's PDS, with its DPoP key: every call of one publish or look-up. */
export async function pdsCaller(
  session: BlueskySession,
  fetchImpl: typeof fetch | undefined,
  signal: AbortSignal,
): Promise<XrpcCaller> {
  return {
    serviceUrl: session.pds,
    accessToken: session.token,
    dpop: await sessionHandle(session),
    signal,
    ...(fetchImpl && { fetch: fetchImpl }),
  };
}
