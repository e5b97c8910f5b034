import type { PublishOutcome, PublishRequest } from '../../ports/connector.js';
import { type FailedOutcome, failed, failureOfAnswer, outcomeOfError } from './errors.js';
import { detectFacets } from './facets.js';
import { resolveHandleOn } from './handles.js';
import { type BlueskyItem, blueskyItems, dueAtMs } from './items.js';
import { BLUESKY_BLOB_REUSE_MS, BLUESKY_VIDEO_CHECK_SECONDS } from './limits.js';
import { checkVideo, type MediaContext, startVideo, uploadImage } from './media.js';
import { blueskyOptionsOf } from './options.js';
import { pdsCaller } from './pds-caller.js';
import { type Blob, type BlueskyProgress, readProgress, type StrongRef, writeProgress } from './progress.js';
import { createdRef, createPostRecord, getPostRecord, postUrl } from './records.js';
import { decodeSession } from './session.js';
import { itemRkey } from './tid.js';
import type { XrpcCaller } from './xrpc.js';

export interface BlueskyPublishSettings {
  /** BLUESKY_VIDEO_URL. */
  videoUrl: string;
  fetch?: typeof fetch;
  now: () => number;
}

type ItemStep = { kind: 'posted'; ref: StrongRef } | { kind: 'stop'; outcome: PublishOutcome };

/**
 * Publishes a post, or the rest of it, on Bluesky (research §2–3). For each item not yet posted (a
 * thread's items in order, replies chained by root and parent; one item otherwise):
 * 1. its record key is a TID we chose (tid.ts) before the first attempt: on any attempt but the
 *    first, the PDS is asked for that record first (getRecord), and a record there is ours;
 * 2. its media: images uploaded as blobs, a video through the video service (`pending` while it
 *    is processed);
 * 3. createRecord with that key, facets for its links, mentions and hashtags. A 5xx is looked up
 *    before anything else (a duplicate key answers 500 on the real PDS); no answer is `unknown`.
 * Every step done goes into the progress, so a later attempt never posts an item twice.
 */
export async function publishToBluesky(
  settings: BlueskyPublishSettings,
  request: PublishRequest,
): Promise<PublishOutcome> {
  const session = request.credentials && decodeSession(request.credentials.accessToken);
  if (!session) return failed('auth_revoked', 'TOKEN_REVOKED');
  const caller = await pdsCaller(session, settings.fetch, request.signal);
  const context: MediaContext = {
    pds: caller,
    did: session.did,
    videoUrl: settings.videoUrl,
    ...(request.bytes && { bytes: request.bytes }),
    now: settings.now,
  };
  const progress = readProgress(request.progress);
  const options = blueskyOptionsOf(request.post);
  const items = blueskyItems(request.post, request.media);
  const due = dueAtMs(request.post);
  let lookFirst = request.attempt > 1 || request.progress !== undefined;

  for (const item of items.slice(progress.posted.length)) {
    const rkey = itemRkey(request.clientReference, due, item.index);
    if (lookFirst) {
      const looked = await lookUp(caller, session.did, rkey, item, settings.now);
      if (looked.kind === 'posted') {
        markPosted(progress, item, looked.ref);
        continue;
      }
      if (looked.kind === 'stop') return withProgress(looked.outcome, progress);
      lookFirst = false;
    }
    const embed = await embedOf(context, item, progress, options.linkCard);
    if (embed.kind === 'stop') return withProgress(embed.outcome, progress);
    const facets = await detectFacets(item.text, resolveHandleOn(caller));
    const root = progress.posted[0];
    const parent = progress.posted.at(-1);
    const record = {
      $type: 'app.bsky.feed.post',
      text: item.text,
      createdAt: new Date(settings.now()).toISOString(),
      ...(options.langs && { langs: options.langs }),
      ...(facets.length > 0 && { facets }),
      ...(embed.embed && { embed: embed.embed }),
      ...(root && parent && { reply: { root, parent } }),
    };
    progress.sending = rkey;
    const sent = await create(caller, session.did, rkey, record, item, settings.now);
    if (sent.kind === 'stop') return withProgress(sent.outcome, progress);
    markPosted(progress, item, sent.ref);
  }

  const first = progress.posted[0];
  if (!first) return failed('permanent', 'PLATFORM_REJECTED');
  return { kind: 'published', platformPostId: first.uri, platformPostUrl: postUrl(first.uri) };
}

async function create(
  caller: XrpcCaller,
  did: string,
  rkey: string,
  record: Record<string, unknown>,
  item: BlueskyItem,
  now: () => number,
): Promise<ItemStep> {
  let answer: Awaited<ReturnType<typeof createPostRecord>>;
  try {
    answer = await createPostRecord(caller, did, rkey, record);
  } catch (error) {
    return { kind: 'stop', outcome: outcomeOfError(error) };
  }
  if (answer.ok) {
    const ref = createdRef(answer);
    // A success without the reference: the record is there, and the look-up names it.
    if (ref) return { kind: 'posted', ref };
  } else if (answer.status < 500) {
    return { kind: 'stop', outcome: failureOfAnswer(answer, now()) };
  }
  // A 5xx may be "already exists" (indigo#873) or a write that went through: look before retrying.
  const looked = await lookUp(caller, did, rkey, item, now);
  if (looked.kind === 'not_found')
    return {
      kind: 'stop',
      outcome: answer.ok ? failed('transient', 'PLATFORM_BAD_ANSWER') : failureOfAnswer(answer, now()),
    };
  return looked;
}

async function lookUp(
  caller: XrpcCaller,
  did: string,
  rkey: string,
  item: BlueskyItem,
  now: () => number,
): Promise<ItemStep | { kind: 'not_found' }> {
  try {
    const found = await getPostRecord(caller, did, rkey);
    if (found.kind === 'not_found') return found;
    if (found.kind === 'found' && found.text === item.text) return { kind: 'posted', ref: found.ref };
    if (found.kind === 'found') {
      // Our key holds someone else's text: never posting twice, the post fails for a person to see.
      return { kind: 'stop', outcome: failed('permanent', 'PLATFORM_REJECTED', 'rkey_taken') };
    }
    const outcome: FailedOutcome = found.answer
      ? failureOfAnswer(found.answer, now())
      : failed('transient', 'PLATFORM_BAD_ANSWER');
    return { kind: 'stop', outcome };
  } catch (error) {
    return { kind: 'stop', outcome: outcomeOfError(error) };
  }
}

type EmbedStep =
  | { kind: 'embed'; embed?: Record<string, unknown> }
  | { kind: 'stop'; outcome: PublishOutcome };

async function embedOf(
  context: MediaContext,
  item: BlueskyItem,
  progress: BlueskyProgress,
  linkCard: { uri: string; title: string; description: string } | undefined,
): Promise<EmbedStep> {
  const images: { image: Blob; alt: string }[] = [];
  for (const { position, media } of item.media) {
    const key = String(position);
    if (media.kind === 'video') {
      const job = progress.videos[key];
      const step = job ? await checkVideo(context, job.jobId) : await startVideo(context, media);
      if (step.kind === 'failed') return { kind: 'stop', outcome: step.outcome };
      if (step.kind === 'processing') {
        progress.videos[key] = { jobId: step.jobId };
        const outcome: PublishOutcome = {
          kind: 'pending',
          progress: writeProgress(progress),
          checkAfterSeconds: BLUESKY_VIDEO_CHECK_SECONDS,
          stage: 'media_processing',
        };
        return { kind: 'stop', outcome };
      }
      return {
        kind: 'embed',
        embed: { $type: 'app.bsky.embed.video', video: step.blob, ...(media.alt && { alt: media.alt }) },
      };
    }
    let blob = progress.blobs[key];
    if (!blob || context.now() - blob.at > BLUESKY_BLOB_REUSE_MS) {
      const uploaded = await uploadImage(context, media);
      if ('kind' in uploaded) return { kind: 'stop', outcome: uploaded };
      blob = { blob: uploaded, at: context.now() };
      progress.blobs[key] = blob;
    }
    // alt is required by the lexicon, and may be empty.
    images.push({ image: blob.blob, alt: media.alt ?? '' });
  }
  if (images.length > 0) return { kind: 'embed', embed: { $type: 'app.bsky.embed.images', images } };
  if (linkCard && item.index === 0)
    return { kind: 'embed', embed: { $type: 'app.bsky.embed.external', external: linkCard } };
  return { kind: 'embed' };
}

function markPosted(progress: BlueskyProgress, item: BlueskyItem, ref: StrongRef): void {
  progress.posted.push(ref);
  delete progress.sending;
  for (const { position } of item.media) {
    delete progress.blobs[String(position)];
    delete progress.videos[String(position)];
  }
}

function withProgress(outcome: PublishOutcome, progress: BlueskyProgress): PublishOutcome {
  if (outcome.kind === 'pending' || outcome.kind === 'published' || outcome.kind === 'published_without_id')
    return outcome;
  return { ...outcome, progress: writeProgress(progress) };
}
