import type { PublishOutcome, PublishRequest } from '../../ports/connector.js';
import { mediaEmbed } from './embeds.js';
import { failed } from './errors.js';
import { detectFacets } from './facets.js';
import { resolveHandleOn } from './handles.js';
import { createItemRecord, lookUpItemRecord } from './item-record.js';
import { type BlueskyItem, blueskyItems, dueAtMs } from './items.js';
import { linkCardEmbed } from './link-card.js';
import type { MediaContext } from './media.js';
import { blueskyOptionsOf } from './options.js';
import { pdsCaller } from './pds-caller.js';
import { type BlueskyProgress, readProgress, type StrongRef, writeProgress } from './progress.js';
import { postUrl } from './records.js';
import { decodeSession } from './session.js';
import { itemRkey } from './tid.js';

export interface BlueskyPublishSettings {
  /** BLUESKY_VIDEO_URL. */
  videoUrl: string;
  fetch?: typeof fetch;
  now: () => number;
}

/**
 * Publishes a post, or the rest of it, on Bluesky (research §2–3). For each item not yet posted (a
 * thread's items in order, replies chained by root and parent; one item otherwise):
 * 1. its record key is a TID we chose (tid.ts) before the first attempt: on any attempt but the
 *    first, the PDS is asked for that record first (getRecord), and a record there is ours;
 * 2. its media: images uploaded as blobs, a video through the video service (`pending` while it
 *    is processed); a first item without media carries the post's link card (link-card.ts), or
 *    the older `platformOptions.bluesky.linkCard` as given;
 * 3. createRecord with that key, facets for its links, mentions and hashtags (item-record.ts).
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
      const looked = await lookUpItemRecord(caller, session.did, rkey, item.text, settings.now);
      if (looked.kind === 'posted') {
        markPosted(progress, item, looked.ref);
        continue;
      }
      if (looked.kind === 'stop') return withProgress(looked.outcome, progress);
      lookFirst = false;
    }
    const media = await mediaEmbed(context, item.media, progress);
    if (media.kind === 'stop') return withProgress(media.outcome, progress);
    const embed =
      media.embed ?? (item.index === 0 ? await cardOf(context, request, options.linkCard) : undefined);
    const facets = await detectFacets(item.text, resolveHandleOn(caller));
    const root = progress.posted[0];
    const parent = progress.posted.at(-1);
    const record = {
      $type: 'app.bsky.feed.post',
      text: item.text,
      createdAt: new Date(settings.now()).toISOString(),
      ...(options.langs && { langs: options.langs }),
      ...(facets.length > 0 && { facets }),
      ...(embed && { embed }),
      ...(root && parent && { reply: { root, parent } }),
    };
    progress.sending = rkey;
    const sent = await createItemRecord(caller, session.did, rkey, record, settings.now);
    if (sent.kind === 'stop') return withProgress(sent.outcome, progress);
    markPosted(progress, item, sent.ref);
  }

  const first = progress.posted[0];
  if (!first) return failed('permanent', 'PLATFORM_REJECTED');
  return { kind: 'published', platformPostId: first.uri, platformPostUrl: postUrl(first.uri) };
}

/**
 * The first item's card: the post's `link` (built by us, link-card.ts), else the older
 * `platformOptions.bluesky.linkCard`, sent as given; the rules refuse both together.
 */
async function cardOf(
  context: MediaContext,
  request: PublishRequest,
  linkCard: { uri: string; title: string; description: string } | undefined,
): Promise<Record<string, unknown> | undefined> {
  const link = request.post.link;
  if (link) {
    return linkCardEmbed(context, {
      link,
      signal: request.signal,
      ...(request.linkPreview && { reader: request.linkPreview }),
      ...(request.linkThumbnail && { thumbnail: request.linkThumbnail }),
    });
  }
  return linkCard && { $type: 'app.bsky.embed.external', external: linkCard };
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
