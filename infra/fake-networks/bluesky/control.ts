import { FailureQueues, type QueuedFailure } from '../shared/failure-injection.js';
import type { FakeBlueskyStore, FakeBlueskyUser, FakeRecord, FakeSession } from './store.js';

export const FAKE_BLUESKY_ENDPOINTS = [
  'par',
  'token',
  'createRecord',
  'getRecord',
  'uploadBlob',
  'getServiceAuth',
  'uploadVideo',
  'getJobStatus',
  'getPosts',
  'getProfile',
] as const;
export type FakeBlueskyEndpoint = (typeof FAKE_BLUESKY_ENDPOINTS)[number];

export class FakeBlueskyControlState extends FailureQueues<FakeBlueskyEndpoint, QueuedFailure> {
  /** Requests seen, in order: which endpoint (or path) and method. */
  readonly seen: { endpoint: string; method: string; path: string }[] = [];
  /** The failureCode the next video jobs end with (validation_failure…); absent: they complete. */
  videoFailure: string | undefined;
}

/** What a test does to the fake and reads from it. */
export interface FakeBlueskyControl {
  inject(endpoint: FakeBlueskyEndpoint, failure: QueuedFailure, times?: number): void;
  clearFailures(): void;
  /** The posts created, in order (what createRecord stored). */
  posts(): FakeRecord[];
  /** The sessions granted, the latest last. */
  sessions(): readonly FakeSession[];
  /** Every access token stops working (as when it expires): a refresh is needed. */
  expireAccessTokens(): void;
  /** The authorization server and the PDS rotate their DPoP nonces (clients must retry with the new one). */
  rotateNonces(): void;
  user(did: string): FakeBlueskyUser | undefined;
  failVideoJobs(failureCode: string | undefined): void;
  seen(): readonly { endpoint: string; method: string; path: string }[];
  /** What a post's view counts (likeCount, replyCount, repostCount, quoteCount, bookmarkCount). */
  setCounts(uri: string, counts: Record<string, number>): void;
}

export function makeControl(state: FakeBlueskyControlState, store: FakeBlueskyStore): FakeBlueskyControl {
  return {
    inject: (endpoint, failure, times = 1) => state.inject(endpoint, failure, times),
    clearFailures: () => state.clearFailures(),
    posts: () => [...store.created],
    sessions: () => store.sessions,
    expireAccessTokens: () => {
      for (const session of store.sessions) session.accessExpiresAt = 0;
    },
    rotateNonces: () => {
      store.nonces = { authServer: store.secret(16), pds: store.secret(16) };
    },
    user: (did) => store.users.get(did),
    failVideoJobs: (failureCode) => {
      state.videoFailure = failureCode;
    },
    seen: () => state.seen,
    setCounts: (uri, counts) => {
      store.counts.set(uri, counts);
    },
  };
}
