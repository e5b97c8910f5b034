import * as z from 'zod';
import { isRecord } from '../http/json-answer.js';
import { errorName } from './errors.js';
import { type StrongRef, strongRefSchema } from './progress.js';
import { callXrpc, type XrpcAnswer, type XrpcCaller } from './xrpc.js';

export const POST_COLLECTION = 'app.bsky.feed.post';

const gotRecord = strongRefSchema.extend({ value: z.object({ text: z.string() }).loose() });

/** What the PDS says of a record key: there (with what it holds), not there, or no usable answer. */
export type RecordLookup =
  | { kind: 'found'; ref: StrongRef; text: string }
  | { kind: 'not_found' }
  | { kind: 'unknown'; answer?: XrpcAnswer };

/**
 * `com.atproto.repo.getRecord` on the account's PDS, the source of truth (the AppView is only
 * eventually consistent: research §3). 400 RecordNotFound means it is not there. Throws when no
 * answer came (RequestNotSentError / NoAnswerError).
 */
export async function getPostRecord(caller: XrpcCaller, did: string, rkey: string): Promise<RecordLookup> {
  const answer = await callXrpc(caller, {
    method: 'GET',
    nsid: 'com.atproto.repo.getRecord',
    query: { repo: did, collection: POST_COLLECTION, rkey },
  });
  if (answer.status === 400 && errorName(answer) === 'RecordNotFound') return { kind: 'not_found' };
  const parsed = gotRecord.safeParse(answer.body);
  if (!answer.ok || !parsed.success) return { kind: 'unknown', answer };
  return { kind: 'found', ref: { uri: parsed.data.uri, cid: parsed.data.cid }, text: parsed.data.value.text };
}

export async function createPostRecord(
  caller: XrpcCaller,
  did: string,
  rkey: string,
  record: Record<string, unknown>,
): Promise<XrpcAnswer> {
  return callXrpc(caller, {
    method: 'POST',
    nsid: 'com.atproto.repo.createRecord',
    json: { repo: did, collection: POST_COLLECTION, rkey, validate: true, record },
  });
}

export function createdRef(answer: XrpcAnswer): StrongRef | undefined {
  return isRecord(answer.body) ? strongRefSchema.safeParse(answer.body).data : undefined;
}

/** The post's address in Bluesky's app: `https://bsky.app/profile/<did>/post/<rkey>`. */
export function postUrl(uri: string): string {
  const [, , did, , rkey] = uri.split('/');
  return `https://bsky.app/profile/${did}/post/${rkey}`;
}
