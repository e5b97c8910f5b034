import { FailureQueues, type QueuedFailure } from '../shared/failure-injection.js';
import { type UserTokenControls, userTokenControls } from '../shared/user-tokens.js';
import type {
  FakeComment,
  FakeContainer,
  FakeContainerType,
  FakeInstagramStore,
  FakeInstagramUser,
  FakeMedia,
} from './store.js';

/** Every route of the fake, by name: failures are injected per endpoint. */
export const FAKE_INSTAGRAM_ENDPOINTS = [
  'authorize',
  'oauth.access_token',
  'access_token',
  'refresh_access_token',
  'me',
  'media.create',
  'media.list',
  'stories.list',
  'object.get',
  'media_publish',
  'content_publishing_limit',
  'media.insights',
  'comments.create',
  'comments.list',
] as const;
export type FakeInstagramEndpoint = (typeof FAKE_INSTAGRAM_ENDPOINTS)[number];

/** What tests queue per endpoint (../shared/failure-injection.ts). */
export type FakeFailure = QueuedFailure;

export interface SeenRequest {
  endpoint: FakeInstagramEndpoint | 'unknown';
  method: string;
  path: string;
  /** The query parameters, the access token left out (the metrics asked: `metric`, `fields`). */
  params: Record<string, string>;
  /** The bearer token or the access_token parameter was present. */
  authorized: boolean;
}

export class FakeInstagramControlState extends FailureQueues<FakeInstagramEndpoint, FakeFailure> {
  readonly seen: SeenRequest[] = [];
  /** Media URLs the fake fetched, in order. */
  readonly fetched: string[] = [];
  /** Status checks answered IN_PROGRESS before a new container of this type is FINISHED. */
  readonly processingPolls: Record<FakeContainerType, number>;
  /** The next containers made end ERROR with these subcodes. */
  readonly failProcessing: number[] = [];
  quotaTotal: number;
  /** Per user: the calls its Business Use Case budget allows an hour, and those made in this hour. */
  readonly callBudgets = new Map<string, { limit: number; used: number; windowStart: number }>();

  constructor(processingPolls: Record<FakeContainerType, number>, quotaTotal: number) {
    super();
    this.processingPolls = { ...processingPolls };
    this.quotaTotal = quotaTotal;
  }
}

/** What tests drive and read; nothing here is reachable over HTTP. */
export interface FakeInstagramControl extends UserTokenControls {
  failNext(endpoint: FakeInstagramEndpoint, failure: FakeFailure, times?: number): void;
  clearFailures(): void;
  /** How many status checks answer IN_PROGRESS before new containers of this type are FINISHED. */
  setProcessingPolls(type: FakeContainerType, polls: number): void;
  /** The next container made ends ERROR with this subcode (2207026: an unsupported video, by default). */
  failProcessing(subcode?: number): void;
  /** A container Instagram let lapse (24 hours unpublished). */
  expireContainer(id: string): void;
  /** The account's publishing limit per 24 hours (50 by default). */
  setQuotaTotal(total: number): void;
  /**
   * Media published at `timestamp` (epoch ms) without going through the API: fills the window
   * (feed images unless `productType` says reels or stories). Returns their ids.
   */
  addPublished(userId: string, timestamps: number[], productType?: FakeMedia['productType']): string[];
  addUser(user: FakeInstagramUser): void;
  /** The account turns comments off on the media (`comment_enabled=false`): new comments are refused. */
  disableComments(mediaId: string): void;
  /** A comment made outside the API (another person's, or the account's in the app). */
  addComment(comment: Omit<FakeComment, 'id'>): string;
  /** Every comment, oldest first. */
  comments(): FakeComment[];
  /** The media is deleted on Instagram: reads of it answer 100/33 from now on. */
  deleteMedia(id: string): void;
  /**
   * The account's Business Use Case budget: `calls` token calls an hour (of the fake's clock), then
   * code 80002 with X-Business-Use-Case-Usage (estimated_time_to_regain_access, minutes).
   */
  limitCalls(userId: string, calls: number): void;
  /** A long-lived token as the connect flow would hold it, issued `ageMs` ago. */
  issueToken(userId: string, options?: { scopes?: string[]; ageMs?: number }): string;
  containers(): FakeContainer[];
  container(id: string): FakeContainer | undefined;
  /** Published media, oldest first. */
  media(): FakeMedia[];
  fetchedUrls(): string[];
  requests(): SeenRequest[];
}

/** Every Instagram Login scope the fake's consent page accepts (and issueToken grants by default). */
export const ALL_SCOPES = [
  'instagram_business_basic',
  'instagram_business_content_publish',
  'instagram_business_manage_insights',
  'instagram_business_manage_comments',
];

export function makeControl(
  state: FakeInstagramControlState,
  store: FakeInstagramStore,
  settings: { longLivedSeconds: number; now: () => number },
): FakeInstagramControl {
  return {
    failNext: (endpoint, failure, times = 1) => state.inject(endpoint, failure, times),
    clearFailures: () => state.clearFailures(),
    setProcessingPolls: (type, polls) => {
      state.processingPolls[type] = polls;
    },
    failProcessing: (subcode = 2207026) => {
      state.failProcessing.push(subcode);
    },
    expireContainer: (id) => {
      const container = store.containers.get(id);
      if (container && container.status !== 'PUBLISHED') container.status = 'EXPIRED';
    },
    setQuotaTotal: (total) => {
      state.quotaTotal = total;
    },
    addPublished: (userId, timestamps, productType = 'FEED') => {
      const ids: string[] = [];
      for (const timestamp of timestamps) {
        const id = store.id();
        ids.push(id);
        store.media.push({
          id,
          owner: userId,
          containerId: store.id(),
          mediaType: productType === 'REELS' ? 'VIDEO' : 'IMAGE',
          productType,
          caption: 'An earlier post',
          timestamp,
          permalink: `https://www.instagram.com/p/${id}/`,
          children: [],
        });
      }
      store.media.sort((a, b) => a.timestamp - b.timestamp);
      return ids;
    },
    addUser: (user) => {
      store.users.set(user.userId, user);
    },
    disableComments: (mediaId) => {
      const media = store.media.find((item) => item.id === mediaId);
      if (media) media.commentsDisabled = true;
    },
    addComment: (comment) => {
      const id = store.id();
      store.comments.push({ id, ...comment });
      return id;
    },
    comments: () => store.comments.map((comment) => ({ ...comment })),
    deleteMedia: (id) => {
      const index = store.media.findIndex((media) => media.id === id);
      if (index >= 0) store.media.splice(index, 1);
    },
    limitCalls: (userId, calls) => {
      state.callBudgets.set(userId, { limit: calls, used: 0, windowStart: settings.now() });
    },
    issueToken: (userId, options = {}) => {
      const value = store.secret(48);
      const issuedAt = settings.now() - (options.ageMs ?? 0);
      store.tokens.set(value, {
        token: value,
        userId,
        scopes: options.scopes ?? [...ALL_SCOPES],
        kind: 'long',
        issuedAt,
        expiresAt: issuedAt + settings.longLivedSeconds * 1000,
        revoked: false,
      });
      return value;
    },
    ...userTokenControls(store.tokens, settings.now),
    containers: () => [...store.containers.values()].map((container) => ({ ...container })),
    container: (id) => {
      const found = store.containers.get(id);
      return found && { ...found };
    },
    media: () => store.media.map((media) => ({ ...media })),
    fetchedUrls: () => [...state.fetched],
    requests: () => [...state.seen],
  };
}
