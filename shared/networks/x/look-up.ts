import type { Account } from '../../domain/tenancy.js';
import { type TimelineTweet, timelineAnswer, userAnswer } from './answers.js';
import { callX, type XCaller } from './api.js';
import { badAnswer, type FailedOutcome, failureOfAnswer, failureOfError, X_MESSAGES } from './errors.js';
import { isSameText } from './text-match.js';

/**
 * Finding what an earlier attempt posted, without posting (docs/networks.md "Looking a post up").
 *
 * X keeps no client reference on a tweet, so a post is recognised on the account's own timeline
 * (GET /2/users/{id}/tweets, replies included, retweets not) by what it is: the same text (links
 * aside, text-match.ts), the same number of media, and for a thread's item the reply to the
 * previous item (for the first, the post the user named to reply to, else no reply at all), the
 * same quoted post, Community and poll or none of them, created no earlier than five minutes before the
 * post was due. X itself refuses a second tweet with the same text from the same account, so two
 * candidates in that window do not happen in practice.
 *
 * Limits: the look-up reads at most `maxPages` pages of 100 tweets since then; an account that
 * posted more than that meanwhile cannot be settled (`unknown`, so the post is not sent again), and
 * a tweet X has not put on the timeline yet is not found (X's duplicate refusal then catches the
 * repeat, see publish.ts).
 */

/** What to look for: one post of the thread (or a first comment). */
export interface ItemShape {
  text: string;
  mediaCount: number;
  /** The post it quotes (`referenced_tweets` type `quoted`). */
  quoteOf?: string;
  /** Its Community (`community_id`). */
  communityId?: string;
  /** Whether it carries a poll (`attachments.poll_ids`). */
  hasPoll?: boolean;
}

export type FindResult =
  | { kind: 'found'; tweetId: string }
  | { kind: 'not_found' }
  /** X did not answer usably, or the window holds more than the look-up reads. */
  | { kind: 'unknown'; failure: FailedOutcome };

/** Tolerance for the difference between our clock and X's `created_at`. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;
const PAGE_SIZE = 100;
export const DEFAULT_LOOKUP_PAGES = 5;

export interface TimelineSearchOptions {
  caller: XCaller;
  account: Account;
  /** The earliest time the post can have been published: when it was due. */
  dueAt: string;
  now: () => number;
  maxPages: number;
}

export interface TimelineSearch {
  find(item: ItemShape, parentId: string | undefined): Promise<FindResult>;
  /** Forget the pages read: the next find reads the timeline afresh. */
  refresh(): void;
}

export function makeTimelineSearch(options: TimelineSearchOptions): TimelineSearch {
  const startTime = new Date(Date.parse(options.dueAt) - CLOCK_SKEW_MS).toISOString();
  let userId = options.account.networkUserId;
  let tweets: TimelineTweet[] = [];
  let pagesRead = 0;
  let nextToken: string | undefined;
  let complete = false;

  const fail = (failure: FailedOutcome): FindResult => ({ kind: 'unknown', failure });

  /** Reads the next page; a FindResult when that is not possible. */
  const readPage = async (): Promise<FindResult | undefined> => {
    if (!userId) {
      const me = await callX(options.caller, { method: 'GET', path: '/2/users/me' });
      if (!me.ok) return fail(failureOfAnswer(me, 'lookup', options.now()));
      const parsed = userAnswer.safeParse(me.body);
      if (!parsed.success) return fail(badAnswer(me));
      userId = parsed.data.data.id;
    }
    const answer = await callX(options.caller, {
      method: 'GET',
      path: `/2/users/${userId}/tweets`,
      query: {
        max_results: String(PAGE_SIZE),
        start_time: startTime,
        exclude: 'retweets',
        'tweet.fields': 'created_at,attachments,referenced_tweets,community_id',
        ...(nextToken && { pagination_token: nextToken }),
      },
    });
    if (!answer.ok) return fail(failureOfAnswer(answer, 'lookup', options.now()));
    const page = timelineAnswer.safeParse(answer.body);
    if (!page.success) return fail(badAnswer(answer));
    pagesRead += 1;
    tweets = [...tweets, ...(page.data.data ?? [])];
    nextToken = page.data.meta?.next_token;
    complete = nextToken === undefined;
    return undefined;
  };

  return {
    refresh() {
      tweets = [];
      pagesRead = 0;
      nextToken = undefined;
      complete = false;
    },
    async find(item, parentId) {
      try {
        for (;;) {
          const match = tweets.find((tweet) => matches(tweet, item, parentId));
          if (match) return { kind: 'found', tweetId: match.id };
          if (complete) return { kind: 'not_found' };
          if (pagesRead >= options.maxPages) return fail(inconclusive());
          const stopped = await readPage();
          if (stopped) return stopped;
        }
      } catch (error) {
        return fail(failureOfError(error));
      }
    },
  };
}

function matches(tweet: TimelineTweet, item: ItemShape, parentId: string | undefined): boolean {
  const referenced = (type: string) =>
    tweet.referenced_tweets?.find((reference) => reference.type === type)?.id;
  return (
    referenced('replied_to') === parentId &&
    referenced('quoted') === item.quoteOf &&
    tweet.community_id === item.communityId &&
    (tweet.attachments?.poll_ids?.length ?? 0) > 0 === (item.hasPoll ?? false) &&
    (tweet.attachments?.media_keys?.length ?? 0) === item.mediaCount &&
    isSameText(tweet.text, item.text)
  );
}

function inconclusive(): FailedOutcome {
  return {
    kind: 'failed',
    failure: 'permanent',
    code: 'PLATFORM_LOOKUP_INCONCLUSIVE',
    message: X_MESSAGES.PLATFORM_LOOKUP_INCONCLUSIVE,
  };
}
