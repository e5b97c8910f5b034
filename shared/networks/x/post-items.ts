import type { Account } from '../../domain/tenancy.js';
import type { PublishOutcome } from '../../ports/connector.js';
import type { MediaBytes } from '../../ports/media-bytes.js';
import { NoAnswerError } from '../http/network-fetch.js';
import { createdTweetAnswer } from './answers.js';
import { callX, type XCaller } from './api.js';
import {
  type FailedOutcome,
  failureOfAnswer,
  failureOfError,
  rateLimited,
  unknownOfError,
  X_MESSAGES,
} from './errors.js';
import { makeTimelineSearch, type TimelineSearch } from './look-up.js';
import { advanceMedia, type UploadContext } from './media-upload.js';
import { writeProgress, type XProgress } from './progress.js';
import { isExhausted, type XRateLimit } from './rate-limit.js';
import type { XItem } from './thread-items.js';

/** Where and how tweets are posted: the settings publish.ts and comment.ts share. */
export interface XPostSettings {
  apiUrl: string;
  fetch?: typeof fetch;
  now: () => number;
  chunkBytes: number;
  /** How long one call may spend appending chunks before it hands back `pending`. */
  uploadBudgetMs: number;
  lookupPages: number;
}

/** Tweets to post in order, each replying to the one before. */
export interface TweetsToPost {
  caller: XCaller;
  account: Account;
  bytes?: MediaBytes;
  items: XItem[];
  /** What the first replies to: a post the user named, the post a first comment is on; else none. */
  firstParent?: string;
  replySettings?: string;
  /** Whether an earlier attempt may have posted some without an answer reaching us. */
  notFirstTry: boolean;
  /** The earliest the first can have gone out (the look-up reads the timeline from then). */
  dueAt: string;
  /** Our reading of X refusing a tweet (not the duplicate refusal), where the caller has its own (a reply refused). */
  refused?: (outcome: FailedOutcome) => FailedOutcome;
}

export type NotPosted = Exclude<PublishOutcome, { kind: 'published' | 'published_without_id' }>;

/**
 * Posts the items not yet in `progress.posted` (twitter.md §1–2), recording each step in it:
 * - on any attempt but the very first, looks on X first for the item an earlier attempt may have
 *   posted without an answer reaching us (look-up.ts); found, it counts as posted;
 * - uploads its media (media-upload.ts), handing back `pending` while X processes a video;
 * - POST /2/tweets, as a reply to the previous item (the first: to `firstParent`).
 * Undefined once every item is posted; else the outcome to hand back, with the progress.
 */
export async function postTweets(
  settings: XPostSettings,
  plan: TweetsToPost,
  progress: XProgress,
): Promise<NotPosted | undefined> {
  const { caller } = plan;
  const upload: UploadContext = {
    caller,
    bytes: plan.bytes,
    chunkBytes: settings.chunkBytes,
    now: settings.now,
    appendUntil: settings.now() + settings.uploadBudgetMs,
  };
  let lookFirst = plan.notFirstTry;
  const search = makeTimelineSearch({
    caller,
    account: plan.account,
    dueAt: plan.dueAt,
    now: settings.now,
    maxPages: settings.lookupPages,
  });
  let tweetsLimit: XRateLimit | undefined;

  for (const item of plan.items.slice(progress.posted.length)) {
    const parentId = item.index === 0 ? plan.firstParent : progress.posted[item.index - 1];
    if (lookFirst) {
      const found = await search.find(item, parentId);
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
    const sent = await postTweet(
      caller,
      tweetBody(item, mediaIds, parentId, plan.replySettings),
      settings.now,
    );
    if (sent.kind === 'posted') {
      tweetsLimit = sent.rateLimit;
      markPosted(progress, item, sent.tweetId);
      continue;
    }
    if (sent.kind === 'failed' && sent.outcome.code === 'DUPLICATE_CONTENT' && plan.notFirstTry) {
      // X refuses the same text twice: after an attempt without an answer, that refusal may be our
      // own earlier tweet, not yet on the timeline when we looked. Look once more before failing.
      const adopted = await findAgain(search, item, parentId);
      if (adopted) {
        markPosted(progress, item, adopted);
        continue;
      }
    }
    const outcome =
      sent.kind === 'failed' && sent.outcome.code !== 'DUPLICATE_CONTENT' && plan.refused
        ? plan.refused(sent.outcome)
        : sent.outcome;
    return { ...outcome, progress: writeProgress(progress) };
  }
  return undefined;
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
  const found = await search.find(item, parentId);
  return found.kind === 'found' ? found.tweetId : undefined;
}

/** openapi CreatePostsRequest: `text` is always sent (X's own default is the empty string). */
export interface TweetBody {
  text: string;
  media?: { media_ids: string[] };
  reply?: { in_reply_to_tweet_id: string };
  reply_settings?: string;
  quote_tweet_id?: string;
  community_id?: string;
  poll?: { options: string[]; duration_minutes: number };
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
    ...(item.quoteOf && { quote_tweet_id: item.quoteOf }),
    ...(item.communityId && { community_id: item.communityId }),
    ...(item.poll && { poll: item.poll }),
  };
}

function markPosted(progress: XProgress, item: XItem, tweetId: string): void {
  progress.posted.push(tweetId);
  for (const { position } of item.media) progress.media.delete(position);
}
