import type { Reply } from './http.js';
import type {
  FakeAccessToken,
  FakeCommunity,
  FakeMedia,
  FakeRefreshToken,
  FakeTweet,
  FakeXStore,
  FakeXUser,
  ProcessingPlan,
  ReplyRestriction,
} from './store.js';

/** Every endpoint of the fake, as tests name them to inject failures. */
export const X_FAKE_ENDPOINTS = [
  'oauth.authorize',
  'oauth.decide',
  'oauth.token',
  'oauth.revoke',
  'users.me',
  'users.tweets',
  'tweets.create',
  'tweets.lookup',
  'communities.get',
  'media.initialize',
  'media.append',
  'media.finalize',
  'media.status',
  'media.metadata',
] as const;
export type XFakeEndpoint = (typeof X_FAKE_ENDPOINTS)[number];

export interface InjectedFailure {
  status: number;
  /** JSON body; none when absent. */
  body?: unknown;
  headers?: Record<string, string>;
  /** How many calls answer it; default 1. */
  times?: number;
  /** How many calls to let through first; default 0 (the very next one). */
  after?: number;
}

export interface RequestRecord {
  method: string;
  path: string;
  endpoint: XFakeEndpoint | undefined;
  /** The query string as sent (e.g. `ids=1,2&tweet.fields=public_metrics`), without the `?`. */
  query: string;
}

/** X's windows: 15 minutes (twitter.md §4). */
export const WINDOW_SECONDS = 15 * 60;

/**
 * Per user per 15 minutes: twitter.md §4 for tweets and media; GET /2/tweets (`tweets.lookup`) as
 * docs.x.com's rate-limit table gives it on pay-per-use; users.me and the timeline are the fake's own choice.
 */
export const DEFAULT_LIMITS: Partial<Record<XFakeEndpoint, number>> = {
  'tweets.create': 100,
  'tweets.lookup': 5000,
  'media.initialize': 1875,
  'media.append': 1875,
  'media.finalize': 1875,
  'media.status': 1000,
  'media.metadata': 500,
  'users.me': 75,
  'users.tweets': 900,
};

interface Window {
  limit: number;
  remaining: number;
  /** Epoch seconds. */
  resetAt: number;
}

export type MediaView = Omit<FakeMedia, 'digest'>;

/** What tests use to steer and read the fake. */
export interface XFakeControl {
  /** The next call(s) to `endpoint` answer this instead (before auth and validation); replaces an earlier one. */
  failNext(endpoint: XFakeEndpoint, failure: InjectedFailure): void;
  /**
   * The next call(s) to `endpoint` are carried out (a tweet is stored) and then answered only after
   * `delayMs`, or not at all if the client gave up first: "accepted, but no answer".
   */
  answerLate(endpoint: XFakeEndpoint, options: { delayMs: number; times?: number; after?: number }): void;
  /** Sets the current window of `endpoint` for every user (e.g. remaining 0 to get 429s). */
  setRateLimit(
    endpoint: XFakeEndpoint,
    window: { remaining: number; limit?: number; resetAt?: number },
  ): void;
  /** How the next finalized video or GIF is processed (default: 2 polls, then succeeded, 1 s apart). */
  nextProcessing(plan: Partial<ProcessingPlan>): void;
  addUser(user: FakeXUser): void;
  /**
   * Puts a tweet on X as if posted (now, or `ageMs` ago on the fake's clock), with who may reply to
   * it (X reply_settings); answers its id.
   */
  addTweet(tweet: { authorId: string; text: string; ageMs?: number; replySettings?: string }): string;
  /** A Community with these members (user ids); answers its id. */
  addCommunity(community: { name?: string; memberIds: string[]; access?: FakeCommunity['access'] }): string;
  /** X's restriction on replies through the API (store.ts ReplyRestriction); `off` by default. */
  restrictReplies(restriction: ReplyRestriction): void;
  /** The tweet is gone, as after its author deleted it: reads answer `resource-not-found`. */
  deleteTweet(id: string): void;
  /**
   * An access token for `userId` (default: the first user) with exactly `scopes`, as a consent that
   * granted only those would give: e.g. a token from before the metrics scopes were asked for.
   */
  issueAccessToken(options: {
    userId?: string;
    scopes: readonly string[];
    expiresInSeconds?: number;
  }): string;
  users(): FakeXUser[];
  tweets(): FakeTweet[];
  media(): MediaView[];
  tokens(): { access: FakeAccessToken[]; refresh: FakeRefreshToken[] };
  requests(): RequestRecord[];
  /** Every access token issued so far stops working (as after its 2 hours). */
  expireAccessTokens(): void;
  /** Moves the fake's clock (code expiry, token expiry, rate-limit windows). */
  advanceClock(ms: number): void;
}

/** The control surface's state, read by the server on every request. */
export class FakeXControlState {
  private readonly failures = new Map<XFakeEndpoint, { reply: Reply } & Countdown>();
  private readonly late = new Map<XFakeEndpoint, { delayMs: number } & Countdown>();
  private readonly windows = new Map<string, Window>();
  private readonly plans: ProcessingPlan[] = [];
  readonly log: RequestRecord[] = [];

  constructor(private readonly store: FakeXStore) {}

  takeFailure(endpoint: XFakeEndpoint): Reply | undefined {
    return take(this.failures, endpoint)?.reply;
  }

  takeDelay(endpoint: XFakeEndpoint): number | undefined {
    return take(this.late, endpoint)?.delayMs;
  }

  takePlan(): ProcessingPlan {
    return this.plans.shift() ?? { polls: 2, outcome: 'succeeded', checkAfterSecs: 1 };
  }

  /** Counts one call against the user's window; the headers to send, and whether it is refused. */
  countCall(endpoint: XFakeEndpoint, userId: string): { headers: Record<string, string>; refused: boolean } {
    const window = this.windowOf(endpoint, userId);
    const refused = window.remaining <= 0;
    if (!refused) window.remaining -= 1;
    return {
      refused,
      headers: {
        'x-rate-limit-limit': String(window.limit),
        'x-rate-limit-remaining': String(window.remaining),
        'x-rate-limit-reset': String(window.resetAt),
      },
    };
  }

  private windowOf(endpoint: XFakeEndpoint, userId: string): Window {
    const key = `${endpoint} ${userId}`;
    const nowSeconds = Math.floor(this.store.now() / 1000);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= nowSeconds) {
      const limit = DEFAULT_LIMITS[endpoint] ?? 1000;
      window = { limit, remaining: limit, resetAt: nowSeconds + WINDOW_SECONDS };
      this.windows.set(key, window);
    }
    return window;
  }

  surface(): XFakeControl {
    const store = this.store;
    return {
      failNext: (endpoint, failure) => {
        const reply: Reply = {
          status: failure.status,
          ...(failure.body !== undefined && { json: failure.body }),
          ...(failure.headers && { headers: failure.headers }),
        };
        this.failures.set(endpoint, { reply, skip: failure.after ?? 0, remaining: failure.times ?? 1 });
      },
      answerLate: (endpoint, { delayMs, times, after }) =>
        this.late.set(endpoint, { delayMs, skip: after ?? 0, remaining: times ?? 1 }),
      setRateLimit: (endpoint, { remaining, limit, resetAt }) => {
        for (const userId of store.users.keys()) {
          const window = this.windowOf(endpoint, userId);
          window.remaining = remaining;
          if (limit !== undefined) window.limit = limit;
          if (resetAt !== undefined) window.resetAt = resetAt;
        }
      },
      nextProcessing: (plan) =>
        this.plans.push({ polls: 2, outcome: 'succeeded', checkAfterSecs: 1, ...plan }),
      addUser: (user) => store.users.set(user.id, { ...user }),
      addTweet: ({ authorId, text, ageMs, replySettings }) => {
        const id = store.snowflake();
        store.tweets.push({
          id,
          authorId,
          text,
          renderedText: text,
          createdAt: store.now() - (ageMs ?? 0),
          mediaIds: [],
          ...(replySettings && { replySettings }),
        });
        return id;
      },
      addCommunity: ({ name, memberIds, access }) => {
        const id = store.snowflake();
        store.communities.set(id, {
          id,
          name: name ?? `Community ${id}`,
          access: access ?? 'Public',
          memberIds: new Set(memberIds),
        });
        return id;
      },
      restrictReplies: (restriction) => {
        store.replyRestriction = restriction;
      },
      deleteTweet: (id) => {
        const index = store.tweets.findIndex((tweet) => tweet.id === id);
        if (index >= 0) store.tweets.splice(index, 1);
      },
      issueAccessToken: ({ userId, scopes, expiresInSeconds }) => {
        const owner = userId ?? store.users.keys().next().value;
        if (!owner || !store.users.has(owner)) throw new Error(`No fake X user ${owner ?? '(none)'}.`);
        const token: FakeAccessToken = {
          token: store.secret('xat_'),
          grantId: store.secret('grant_'),
          userId: owner,
          clientId: 'issued-by-control',
          scopes: [...scopes],
          expiresAt: store.now() + (expiresInSeconds ?? 7200) * 1000,
          revoked: false,
        };
        store.accessTokens.set(token.token, token);
        return token.token;
      },
      users: () => [...store.users.values()].map((user) => ({ ...user })),
      tweets: () =>
        store.tweets.map((tweet) => ({
          ...tweet,
          mediaIds: [...tweet.mediaIds],
          ...(tweet.poll && { poll: { ...tweet.poll, options: [...tweet.poll.options] } }),
        })),
      media: () =>
        [...store.media.values()].map(({ digest: _digest, ...media }) => ({
          ...media,
          segments: [...media.segments],
        })),
      tokens: () => ({
        access: [...store.accessTokens.values()].map((token) => ({ ...token })),
        refresh: [...store.refreshTokens.values()].map((token) => ({ ...token })),
      }),
      requests: () => [...this.log],
      expireAccessTokens: () => {
        for (const token of store.accessTokens.values())
          token.expiresAt = Math.min(token.expiresAt, store.now());
      },
      advanceClock: (ms) => store.advanceClock(ms),
    };
  }
}

/** Lets `skip` calls through, then applies to `remaining` calls; one per endpoint (a new one replaces it). */
interface Countdown {
  skip: number;
  remaining: number;
}

function take<T extends Countdown>(map: Map<XFakeEndpoint, T>, endpoint: XFakeEndpoint): T | undefined {
  const entry = map.get(endpoint);
  if (!entry) return undefined;
  if (entry.skip > 0) {
    entry.skip -= 1;
    return undefined;
  }
  entry.remaining -= 1;
  if (entry.remaining <= 0) map.delete(endpoint);
  return entry;
}
