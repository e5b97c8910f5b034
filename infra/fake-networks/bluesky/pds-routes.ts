import { createHash } from 'node:crypto';
import type { Reply } from '../shared/http.js';
import { type Handler, jsonBody, type RouteContext, xrpcError } from './context.js';
import { checkDpop } from './dpop-check.js';
import { postRecordProblem, referencedBlobs } from './record-rules.js';
import type { FakeBlueskyUser, FakeRecord } from './store.js';

const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const CREATE_POINTS = 3;
const DELETE_POINTS = 1;

/** A CID-looking id of content (bafyrei… for records, bafkrei… for blobs): a hash, as real CIDs are. */
function cidOf(prefix: string, content: Buffer | string): string {
  return `${prefix}${createHash('sha256').update(content).digest('hex').slice(0, 52)}`;
}

/**
 * The account behind `Authorization: DPoP <token>` and its proof (the PDS's nonce, `ath`, the key
 * the token is bound to), or the PDS's refusal: 401 with a DPoP challenge.
 */
export function authorised(context: RouteContext): { user: FakeBlueskyUser } | { refusal: Reply } {
  const header = context.headers.authorization ?? '';
  if (!header.startsWith('DPoP ')) {
    return {
      refusal: xrpcError(401, 'AuthMissing', 'Authentication Required', { 'www-authenticate': 'DPoP' }),
    };
  }
  const accessToken = header.slice('DPoP '.length);
  const dpop = checkDpop(context, 'pds', accessToken);
  if ('refusal' in dpop) return dpop;
  const session = context.store.sessionByAccess(accessToken);
  if (!session || session.jkt !== dpop.jkt || session.accessExpiresAt <= context.settings.now()) {
    return {
      refusal: xrpcError(401, 'InvalidToken', 'Token is expired', {
        'www-authenticate': 'DPoP error="invalid_token", error_description="Token is expired"',
      }),
    };
  }
  const user = context.store.users.get(session.did);
  if (!user) return { refusal: xrpcError(401, 'InvalidToken', 'Unknown account') };
  if (user.takenDown) return { refusal: xrpcError(400, 'AccountTakedown', 'Account has been taken down') };
  return { user };
}

/** Write points per account, 5,000 an hour and 35,000 a day (the rate-limits page): 429 past them. */
function spendWritePoints(context: RouteContext, did: string, points: number): Reply | undefined {
  const now = context.settings.now();
  const spent = (context.store.writes.get(did) ?? []).filter((entry) => entry.at > now - 24 * 3_600_000);
  const hour = spent
    .filter((entry) => entry.at > now - 3_600_000)
    .reduce((sum, entry) => sum + entry.points, 0);
  const day = spent.reduce((sum, entry) => sum + entry.points, 0);
  const limits = [
    { used: hour, limit: context.settings.writePointsPerHour, window: 3600 },
    { used: day, limit: context.settings.writePointsPerDay, window: 86_400 },
  ];
  const over = limits.find(({ used, limit }) => used + points > limit);
  if (over) {
    const oldest = spent.find((entry) => entry.at > now - over.window * 1000)?.at ?? now;
    return xrpcError(429, 'RateLimitExceeded', 'Rate Limit Exceeded', {
      'ratelimit-limit': String(over.limit),
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(Math.ceil((oldest + over.window * 1000) / 1000)),
      'ratelimit-policy': `${over.limit};w=${over.window}`,
    });
  }
  spent.push({ at: now, points });
  context.store.writes.set(did, spent);
  return undefined;
}

/** POST com.atproto.repo.createRecord: a post under the caller's own repo, with a TID key if given. */
export const createRecord: Handler = (context) => {
  const auth = authorised(context);
  if ('refusal' in auth) return auth.refusal;
  const body = jsonBody(context);
  if (!body) return xrpcError(400, 'InvalidRequest', 'Request body must be JSON');
  const did = auth.user.did;
  if (body.repo !== did && body.repo !== auth.user.handle)
    return xrpcError(400, 'InvalidRequest', 'Invalid repo');
  if (body.collection !== 'app.bsky.feed.post')
    return xrpcError(400, 'InvalidRequest', 'Unsupported collection');
  const rkey = body.rkey === undefined ? undefined : String(body.rkey);
  if (rkey !== undefined && !TID.test(rkey))
    return xrpcError(400, 'InvalidRequest', 'Invalid record key: must be a TID');
  const problem = postRecordProblem(body.record, did, context.store, context.settings);
  if (problem) return xrpcError(400, 'InvalidRequest', `Invalid app.bsky.feed.post record: ${problem}`);
  const key = rkey ?? context.store.secret(8);
  const uri = `at://${did}/app.bsky.feed.post/${key}`;
  // The reference PDS answers a key already taken with an internal error, not a 4xx (indigo#873).
  if (context.store.records.has(uri)) return xrpcError(500, 'InternalServerError', 'Internal Server Error');
  const limited = spendWritePoints(context, did, CREATE_POINTS);
  if (limited) return limited;
  const value = body.record as Record<string, unknown>;
  const record: FakeRecord = { uri, cid: cidOf('bafyrei', JSON.stringify(value)), did, rkey: key, value };
  context.store.records.set(uri, record);
  context.store.created.push(record);
  for (const cid of referencedBlobs(value)) {
    const blob = context.store.blobs.get(cid);
    if (blob) blob.referenced = true;
  }
  return {
    status: 200,
    json: {
      uri,
      cid: record.cid,
      commit: { cid: cidOf('bafyrei', uri), rev: context.store.secret(6) },
      validationStatus: 'valid',
    },
  };
};

/** GET com.atproto.repo.getRecord: public; 400 RecordNotFound when the key holds nothing. */
export const getRecord: Handler = ({ store, url }) => {
  const repo = url.searchParams.get('repo') ?? '';
  const collection = url.searchParams.get('collection') ?? '';
  const rkey = url.searchParams.get('rkey') ?? '';
  const user =
    store.users.get(repo) ?? [...store.users.values()].find((candidate) => candidate.handle === repo);
  if (!user) return xrpcError(400, 'InvalidRequest', `Could not find repo: ${repo}`);
  if (collection === 'app.bsky.actor.profile' && rkey === 'self') {
    return {
      status: 200,
      json: {
        uri: `at://${user.did}/${collection}/self`,
        cid: cidOf('bafyrei', user.displayName),
        value: { $type: collection, displayName: user.displayName },
      },
    };
  }
  const record = store.records.get(`at://${user.did}/${collection}/${rkey}`);
  if (!record)
    return xrpcError(
      400,
      'RecordNotFound',
      `Could not locate record: at://${user.did}/${collection}/${rkey}`,
    );
  return { status: 200, json: { uri: record.uri, cid: record.cid, value: record.value } };
};

/** POST com.atproto.repo.deleteRecord: idempotent ("or ensures it does not exist"). */
export const deleteRecord: Handler = (context) => {
  const auth = authorised(context);
  if ('refusal' in auth) return auth.refusal;
  const body = jsonBody(context) ?? {};
  const limited = spendWritePoints(context, auth.user.did, DELETE_POINTS);
  if (limited) return limited;
  context.store.records.delete(`at://${auth.user.did}/${String(body.collection)}/${String(body.rkey)}`);
  return { status: 200, json: {} };
};

/** POST com.atproto.repo.uploadBlob: the raw bytes, at most the PDS's blob cap (413 past it). */
export const uploadBlob: Handler = (context) => {
  const auth = authorised(context);
  if ('refusal' in auth) return auth.refusal;
  if (context.body.length > context.settings.maxBlobBytes)
    return xrpcError(413, 'PayloadTooLarge', 'request entity too large');
  const mimeType = String(context.headers['content-type'] ?? 'application/octet-stream');
  const blob = {
    did: auth.user.did,
    cid: cidOf('bafkrei', context.body),
    mimeType,
    size: context.body.length,
    uploadedAt: context.settings.now(),
  };
  context.store.blobs.set(blob.cid, blob);
  return {
    status: 200,
    json: { blob: { $type: 'blob', ref: { $link: blob.cid }, mimeType, size: blob.size } },
  };
};

/** GET com.atproto.repo.describeRepo: public; the handle checked both ways. */
export const describeRepo: Handler = ({ store, url }) => {
  const user = store.users.get(url.searchParams.get('repo') ?? '');
  if (!user) return xrpcError(400, 'InvalidRequest', 'Could not find repo');
  return {
    status: 200,
    json: { did: user.did, handle: user.handle, handleIsCorrect: true, collections: ['app.bsky.feed.post'] },
  };
};

/** GET com.atproto.identity.resolveHandle: the DID of a handle this fake knows. */
export const resolveHandle: Handler = ({ store, url }) => {
  const handle = (url.searchParams.get('handle') ?? '').toLowerCase();
  const user = [...store.users.values()].find((candidate) => candidate.handle === handle);
  if (!user) return xrpcError(400, 'InvalidRequest', 'Unable to resolve handle');
  return { status: 200, json: { did: user.did } };
};

/** GET com.atproto.server.getServiceAuth: a short-lived token for another service (`aud`, `lxm`). */
export const getServiceAuth: Handler = (context) => {
  const auth = authorised(context);
  if ('refusal' in auth) return auth.refusal;
  const aud = context.url.searchParams.get('aud') ?? '';
  const lxm = context.url.searchParams.get('lxm') ?? '';
  const exp = Number(context.url.searchParams.get('exp') ?? '0');
  const now = context.settings.now();
  if (!aud.startsWith('did:')) return xrpcError(400, 'InvalidRequest', 'Invalid aud');
  if (exp && (exp * 1000 <= now || exp * 1000 > now + 3_600_000))
    return xrpcError(400, 'BadExpiration', 'Bad expiration');
  const token = `svc-${context.store.secret(24)}`;
  context.store.serviceTokens.set(token, {
    did: auth.user.did,
    aud,
    lxm,
    expiresAt: exp ? exp * 1000 : now + 60_000,
  });
  return { status: 200, json: { token } };
};
