import type { Post } from '../../domain/posts.js';
import type { PublishOutcome, PublishRequest } from '../../ports/connector.js';
import { NoAnswerError } from '../http/network-fetch.js';
import { createdTweetAnswer } from './answers.js';
import { callX, type XCaller } from './api.js';
import {
  type FailedOutcome,
  failureOfAnswer,
  failureOfError,
  localFailure,
  rateLimited,
  unknownOfError,
  X_MESSAGES,
} from './errors.js';
import { makeTimelineSearch, type TimelineSearch } from './look-up.js';
import { advanceMedia, type UploadContext } from './media-upload.js';
import { replySettingsOf } from './options.js';
import { readProgress, writeProgress, type XProgress } from './progress.js';
import { isExhausted, type XRateLimit } from './rate-limit.js';
import { type XItem, xItems } from './thread-items.js';

export interface XPublishSettings {
  apiUrl: string;
  fetch?: typeof fetch;
  now: () => number;
  chunkBytes: number;
  /** How long one call may spend appending chunks before it hands back `pending`. */
  uploadBudgetMs: number;
  lookupPages: number;
}

/**
 * Publishes a post, or the rest of it, on X (twitter.md §1–2):
 * 1. For each item not yet posted (a thread's items, in order; one item otherwise):
 *    - on any attempt but the very first, look on X first for the item an earlier attempt may have
 *      posted without an answer reaching us (look-up.ts); found, it counts as posted;
 *    - upload its media (media-upload.ts), handing back `pending` while X processes a video;
 *    - POST /2/tweets, as a reply to the previous item, with the post's reply settings.
 * 2. Every step done goes into the progress handed back with `pending`, `failed` or `unknown`, so
 *    a later attempt resumes after it and never posts an item twice.
 * The post's id and URL on X are those of its first tweet.
 */
export async function publishToX(
  settings: XPublishSettings,
  request: PublishRequest,
): Promise<PublishOutcome> {
  const { post, account, signal } = request;
  if (!request.credentials) return localFailure('auth_revoked', 'TOKEN_REVOKED');
  const caller: XCaller = {
    apiUrl: settings.apiUrl,
    accessToken: request.credentials.accessToken,
    signal,
    ...(settings.fetch && { fetch: settings.fetch }),
  };
  const items = xItems(post, request.media);
  const progress = readProgress(request.progress);
  const replySettings = replySettingsOf(post);
  const upload: UploadContext = {
    caller,
    bytes: request.bytes,
    chunkBytes: settings.chunkBytes,
    now: settings.now,
    appendUntil: settings.now() + settings.uploadBudgetMs,
  };
  // An earlier attempt may have posted an item and lost the answer (a time-out, a worker that
  // stopped): until a look-up finds an item missing, each is looked for before it is posted.
  const notFirstTry = request.attempt > 1 || request.progress !== undefined;
  let lookFirst = notFirstTry;
  const search = makeTimelineSearch({
    caller,
    account,
    dueAt: dueAt(post),
    now: settings.now,
    maxPages: settings.lookupPages,
  });
  let tweetsLimit: XRateLimit | undefined;

  for (const item of items.slice(progress.posted.length)) {
    const parentId = progress.posted[item.index - 1];
    if (lookFirst) {
      const found = await search.find(shapeOf(item), parentId);
      if (found.kind === 'unknown') return { ...found.failure, progress: writeProgress(progress) };
      if (found.kind === 'found') {
        markPosted(progress, item, found.tweetId);
        continue;
      }
      lookFirst = false;
    }

    const mediaIds: string[] = [];
    for (const { position, media } of item.media) {
      const step = await advanceMedia(upload, media, progress.media.get(position));
      if (step.progress) progress.media.set(position, step.progress);
      else progress.media.delete(position);
      if (step.kind === 'failed') return { ...step.outcome, progress: writeProgress(progress) };
      if (step.kind === 'pending') {
        const { checkAfterSeconds, stage } = step;
        return { kind: 'pending', progress: writeProgress(progress), checkAfterSeconds, stage };
      }
      mediaIds.push(step.progress.id);
    }

    // X said the window is spent: the next POST would be refused, so wait for the reset instead.
    if (isExhausted(tweetsLimit, settings.now())) {
      return { ...rateLimited(tweetsLimit, settings.now()), progress: writeProgress(progress) };
    }
    const sent = await postTweet(caller, tweetBody(item, mediaIds, parentId, replySettings), settings.now);
    if (sent.kind === 'posted') {
      tweetsLimit = sent.rateLimit;
      markPosted(progress, item, sent.tweetId);
      continue;
    }
    if (sent.kind === 'failed' && sent.outcome.code === 'DUPLICATE_CONTENT' && notFirstTry) {
      // X refuses the same text twice: after an attempt without an answer, that refusal may be our
      // own earlier tweet, not yet on the timeline when we looked. Look once more before failing.
      const adopted = await findAgain(search, item, parentId);
      if (adopted) {
        markPosted(progress, item, adopted);
        continue;
      }
    }
    return { ...sent.outcome, progress: writeProgress(progress) };
  }

  const rootId = progress.posted[0];
  if (!rootId) {
    // Only a post with no items gets here; the rules refuse such a post long before.
    return localFailure('permanent', 'PLATFORM_REJECTED');
  }
  return { kind: 'published', platformPostId: rootId, platformPostUrl: tweetUrl(account.handle, rootId) };
}

type Sent =
  | { kind: 'posted'; tweetId: string; rateLimit: XRateLimit }
  | { kind: 'failed'; outcome: FailedOutcome }
  | { kind: 'unknown'; outcome: Extract<PublishOutcome, { kind: 'unknown' }> };

async function postTweet(caller: XCaller, body: TweetBody, now: () => number): Promise<Sent> {
  let answer: Awaited<ReturnType<typeof callX>>;
  try {
    answer = await callX(caller, { method: 'POST', path: '/2/tweets', json: body });
  } catch (error) {
    if (error instanceof NoAnswerError) return { kind: 'unknown', outcome: unknownOfError(error) };
    return { kind: 'failed', outcome: failureOfError(error) };
  }
  if (!answer.ok) return { kind: 'failed', outcome: failureOfAnswer(answer, 'tweet', now()) };
  const created = createdTweetAnswer.safeParse(answer.body);
  if (!created.success) {
    // A success without the id: X may well have the tweet, so this is settled by a look-up.
    return {
      kind: 'unknown',
      outcome: { kind: 'unknown', code: 'PLATFORM_BAD_ANSWER', message: X_MESSAGES.PLATFORM_BAD_ANSWER },
    };
  }
  return { kind: 'posted', tweetId: created.data.data.id, rateLimit: answer.rateLimit };
}

async function findAgain(search: TimelineSearch, item: XItem, parentId: string | undefined) {
  search.refresh();
  const found = await search.find(shapeOf(item), parentId);
  return found.kind === 'found' ? found.tweetId : undefined;
}

/** openapi CreatePostsRequest: `text` is always sent (X's own default is the empty string). */
interface TweetBody {
  text: string;
  media?: { media_ids: string[] };
  reply?: { in_reply_to_tweet_id: string };
  reply_settings?: string;
}

function tweetBody(
  item: XItem,
  mediaIds: string[],
  parentId: string | undefined,
  replySettings: string | undefined,
): TweetBody {
  return {
    text: item.text,
    ...(mediaIds.length > 0 && { media: { media_ids: mediaIds } }),
    ...(parentId && { reply: { in_reply_to_tweet_id: parentId } }),
    ...(replySettings && { reply_settings: replySettings }),
  };
}

function markPosted(progress: XProgress, item: XItem, tweetId: string): void {
  progress.posted.push(tweetId);
  for (const { position } of item.media) progress.media.delete(position);
}

function shapeOf(item: XItem): { text: string; mediaCount: number } {
  return { text: item.text, mediaCount: item.media.length };
}

/** The earliest the post can have gone out: when it was due (scheduled), else when it was made. */
export function dueAt(post: Pick<Post, 'createdAt' | 'scheduledAt'>): string {
  const created = Date.parse(post.createdAt);
  const scheduled = post.scheduledAt ? Date.parse(post.scheduledAt) : Number.NaN;
  return new Date(Number.isNaN(scheduled) ? created : Math.max(created, scheduled)).toISOString();
}

/** X's address of a tweet; `i/web/status` works without the handle. */
export function tweetUrl(handle: string, tweetId: string): string {
  const username = handle.replace(/^@/, '');
  return username
    ? `https://x.com/${encodeURIComponent(username)}/status/${tweetId}`
    : `https://x.com/i/web/status/${tweetId}`;
}
