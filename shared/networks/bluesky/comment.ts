import type {
  CommentLookupOutcome,
  CommentLookupRequest,
  CommentOutcome,
  CommentRequest,
  PublishOutcome,
} from '../../ports/connector.js';
import { type CommentProgress, readCommentProgress, writeCommentProgress } from './comment-progress.js';
import { mediaEmbed } from './embeds.js';
import { failed, failureOfAnswer, outcomeOfError } from './errors.js';
import { detectFacets } from './facets.js';
import { resolveHandleOn } from './handles.js';
import { createItemRecord, lookUpItemRecord } from './item-record.js';
import { dueAtMs } from './items.js';
import type { MediaContext } from './media.js';
import { pdsCaller } from './pds-caller.js';
import type { StrongRef } from './progress.js';
import type { BlueskyPublishSettings } from './publish.js';
import { getPostRecord, postUrl } from './records.js';
import { decodeSession } from './session.js';
import { itemRkey } from './tid.js';
import type { XrpcCaller } from './xrpc.js';

/**
 * A post's first comment on Bluesky (research first-comment-and-link-previews.md §1.7): a reply
 * record whose root and parent are both the post's strongRef, with media embedded as a post's.
 * Its record key is chosen before the first createRecord (derived from the comment's reference, so
 * even a worker that died before storing it uses the same one) and kept in the progress: the PDS
 * refuses a second record under it, and a look-up reads it exactly (getRecord).
 */
export async function publishCommentOnBluesky(
  settings: BlueskyPublishSettings,
  request: CommentRequest,
): Promise<CommentOutcome> {
  const session = request.credentials && decodeSession(request.credentials.accessToken);
  if (!session) return failed('auth_revoked', 'TOKEN_REVOKED');
  const caller = await pdsCaller(session, settings.fetch, request.signal);
  const progress = readCommentProgress(request.progress);
  const done = progress.posted[0];
  if (done) return { kind: 'published', platformPostId: done.uri, platformPostUrl: postUrl(done.uri) };
  const rkey = progress.sending ?? commentRkey(request);
  progress.sending = rkey;
  const text = request.comment.text;

  if (request.attempt > 1 || request.progress !== undefined) {
    const looked = await lookUpItemRecord(caller, session.did, rkey, text, settings.now);
    if (looked.kind === 'posted') return publishedAs(looked.ref);
    if (looked.kind === 'stop') return stopWith(looked.outcome, progress);
  }
  const parent =
    progress.parent ?? (await postRef(caller, session.did, request.post.platformPostId, settings.now));
  if ('kind' in parent) return stopWith(parent, progress);
  progress.parent = parent;

  const context: MediaContext = {
    pds: caller,
    did: session.did,
    videoUrl: settings.videoUrl,
    ...(request.bytes && { bytes: request.bytes }),
    now: settings.now,
  };
  const media = request.comment.media.map((item, position) => ({ position, media: item }));
  const embed = await mediaEmbed(context, media, progress);
  if (embed.kind === 'stop') return stopWith(embed.outcome, progress);
  const facets = await detectFacets(text, resolveHandleOn(caller));
  const record = {
    $type: 'app.bsky.feed.post',
    text,
    createdAt: new Date(settings.now()).toISOString(),
    ...(facets.length > 0 && { facets }),
    ...(embed.embed && { embed: embed.embed }),
    reply: { root: parent, parent },
  };
  const sent = await createItemRecord(caller, session.did, rkey, record, settings.now);
  if (sent.kind === 'stop') return stopWith(sent.outcome, progress);
  return publishedAs(sent.ref);
}

/**
 * Whether the attempt whose outcome is unknown made the comment: the record under its key
 * (getRecord on the PDS, the source of truth), with the comment's text.
 */
export async function findCommentOnBluesky(
  fetchImpl: typeof fetch | undefined,
  request: CommentLookupRequest,
): Promise<CommentLookupOutcome> {
  const session = request.credentials && decodeSession(request.credentials.accessToken);
  if (!session)
    return { kind: 'unknown', message: 'The Bluesky account has no session to look the comment up with.' };
  const caller = await pdsCaller(session, fetchImpl, request.signal);
  const rkey = readCommentProgress(request.progress).sending ?? commentRkey(request);
  let found: Awaited<ReturnType<typeof getPostRecord>>;
  try {
    found = await getPostRecord(caller, session.did, rkey);
  } catch {
    return { kind: 'unknown', message: 'Bluesky did not answer the look-up.' };
  }
  if (found.kind === 'not_found') return { kind: 'not_found' };
  if (found.kind === 'unknown')
    return {
      kind: 'unknown',
      message: `Bluesky answered the look-up with HTTP ${found.answer?.status ?? '?'}.`,
    };
  if (found.text !== request.comment.text)
    return { kind: 'unknown', message: 'The record key of the comment holds another post.' };
  return { kind: 'found', platformPostId: found.ref.uri, platformPostUrl: postUrl(found.ref.uri) };
}

/**
 * The comment's record key: a TID of when the post was published (else due), made unique by the
 * comment's own reference (tid.ts), so it differs from every item key of the post.
 */
function commentRkey(request: Pick<CommentRequest, 'post' | 'clientReference'>): string {
  const published = request.post.publishedAt ? Date.parse(request.post.publishedAt) : Number.NaN;
  return itemRkey(request.clientReference, Number.isNaN(published) ? dueAtMs(request.post) : published, 0);
}

/** The post's strongRef (its CID is in no answer the comment has): getRecord of its AT-URI's key. */
async function postRef(
  caller: XrpcCaller,
  did: string,
  uri: string,
  now: () => number,
): Promise<StrongRef | PublishOutcome> {
  const rkey = uri.split('/').at(-1) ?? '';
  try {
    const found = await getPostRecord(caller, did, rkey);
    if (found.kind === 'found') return found.ref;
    if (found.kind === 'not_found') return failed('permanent', 'COMMENT_TARGET_GONE', 'RecordNotFound');
    return found.answer ? failureOfAnswer(found.answer, now()) : failed('transient', 'PLATFORM_BAD_ANSWER');
  } catch (error) {
    return outcomeOfError(error);
  }
}

function publishedAs(ref: StrongRef): CommentOutcome {
  return { kind: 'published', platformPostId: ref.uri, platformPostUrl: postUrl(ref.uri) };
}

/** A publish step's outcome as the comment's, with its progress (a comment is never published without an id). */
function stopWith(outcome: PublishOutcome, progress: CommentProgress): CommentOutcome {
  if (outcome.kind === 'published_without_id') return failed('transient', 'PLATFORM_BAD_ANSWER');
  if (outcome.kind === 'pending' || outcome.kind === 'published') return outcome;
  return { ...outcome, progress: writeCommentProgress(progress) };
}
