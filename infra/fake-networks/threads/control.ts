import { FailureQueues, type QueuedFailure } from '../shared/failure-injection.js';
import { type UserTokenControls, userTokenControls } from '../shared/user-tokens.js';
import type {
  FakeContainer,
  FakeMediaType,
  FakeThreadsPost,
  FakeThreadsStore,
  FakeThreadsUser,
} from './store.js';

/** Every route of the fake, by name: failures are injected per endpoint. */
export const FAKE_THREADS_ENDPOINTS = [
  'authorize',
  'oauth.access_token',
  'access_token',
  'refresh_access_token',
  'me',
  'threads.create',
  'threads.list',
  'replies.list',
  'object.get',
  'threads_publish',
  'threads_publishing_limit',
  'media.insights',
  'threads_insights',
] as const;
export type FakeThreadsEndpoint = (typeof FAKE_THREADS_ENDPOINTS)[number];

/** What tests queue per endpoint (../shared/failure-injection.ts). */
export type FakeFailure = QueuedFailure;

export interface SeenRequest {
  endpoint: FakeThreadsEndpoint | 'unknown';
  method: string;
  path: string;
  /** The query and form parameters, the access token and the secret left out. */
  params: Record<string, string>;
  /** The bearer token or the access_token parameter was present. */
  authorized: boolean;
}

/** Every permission of the Threads use case the fake's consent page accepts. */
export const ALL_SCOPES = [
  'threads_basic',
  'threads_content_publish',
  'threads_manage_replies',
  'threads_read_replies',
  'threads_manage_insights',
  'threads_delete',
];

export class FakeThreadsControlState extends FailureQueues<FakeThreadsEndpoint, FakeFailure> {
  readonly seen: SeenRequest[] = [];
  /** Media URLs the fake fetched, in order. */
  readonly fetched: string[] = [];
  /** Status checks answered IN_PROGRESS before a new container of this type is FINISHED. */
  readonly processingPolls: Record<FakeMediaType, number>;
  /** The next containers made end ERROR with these error_messages. */
  readonly failProcessing: string[] = [];
  quotaTotal: number;
  replyQuotaTotal: number;

  constructor(processingPolls: Record<FakeMediaType, number>, quotaTotal: number, replyQuotaTotal: number) {
    super();
    this.processingPolls = { ...processingPolls };
    this.quotaTotal = quotaTotal;
    this.replyQuotaTotal = replyQuotaTotal;
  }
}

/** What tests drive and read; nothing here is reachable over HTTP. */
export interface FakeThreadsControl extends UserTokenControls {
  failNext(endpoint: FakeThreadsEndpoint, failure: FakeFailure, times?: number): void;
  clearFailures(): void;
  /** How many status checks answer IN_PROGRESS before new containers of this type are FINISHED. */
  setProcessingPolls(type: FakeMediaType, polls: number): void;
  /** The next container made ends ERROR with this error_message (FAILED_PROCESSING_VIDEO by default). */
  failProcessing(errorMessage?: string): void;
  /** A container Threads let lapse (24 hours unpublished). */
  expireContainer(id: string): void;
  /** Posts per rolling 24 hours (250 by default) and replies (1,000). */
  setQuotaTotal(total: number): void;
  setReplyQuotaTotal(total: number): void;
  /** Posts published at `timestamp` (epoch ms) without the API: fills the window. Returns their ids. */
  addPublished(
    userId: string,
    timestamps: number[],
    options?: { text?: string; repliedTo?: string },
  ): string[];
  addUser(user: FakeThreadsUser): void;
  /** A long-lived token as the connect flow would hold it, issued `ageMs` ago. */
  issueToken(
    userId: string,
    options?: { scopes?: string[]; ageMs?: number; kind?: 'short' | 'long' },
  ): string;
  containers(): FakeContainer[];
  container(id: string): FakeContainer | undefined;
  /** Published posts and replies, oldest first. */
  posts(): FakeThreadsPost[];
  fetchedUrls(): string[];
  requests(): SeenRequest[];
}

export function makeControl(
  state: FakeThreadsControlState,
  store: FakeThreadsStore,
  settings: { longLivedSeconds: number; shortLivedSeconds: number; now: () => number },
): FakeThreadsControl {
  return {
    failNext: (endpoint, failure, times = 1) => state.inject(endpoint, failure, times),
    clearFailures: () => state.clearFailures(),
    setProcessingPolls: (type, polls) => {
      state.processingPolls[type] = polls;
    },
    failProcessing: (errorMessage = 'FAILED_PROCESSING_VIDEO') => {
      state.failProcessing.push(errorMessage);
    },
    expireContainer: (id) => {
      const container = store.containers.get(id);
      if (container && container.status !== 'PUBLISHED') container.status = 'EXPIRED';
    },
    setQuotaTotal: (total) => {
      state.quotaTotal = total;
    },
    setReplyQuotaTotal: (total) => {
      state.replyQuotaTotal = total;
    },
    addPublished: (userId, timestamps, options = {}) =>
      timestamps.map((timestamp) => {
        const id = store.id();
        store.posts.push({
          id,
          owner: userId,
          containerId: store.id(),
          mediaType: 'TEXT_POST',
          text: options.text ?? 'An earlier post',
          timestamp,
          shortcode: `C${id.slice(-8)}`,
          permalink: `https://www.threads.net/@fake/post/C${id.slice(-8)}`,
          ...(options.repliedTo && { repliedTo: options.repliedTo }),
          replyControl: 'everyone',
          children: [],
        });
        store.posts.sort((a, b) => a.timestamp - b.timestamp);
        return id;
      }),
    addUser: (user) => {
      store.users.set(user.userId, user);
    },
    issueToken: (userId, options = {}) => {
      const value = store.secret(48);
      const kind = options.kind ?? 'long';
      const issuedAt = settings.now() - (options.ageMs ?? 0);
      const lifetime = kind === 'long' ? settings.longLivedSeconds : settings.shortLivedSeconds;
      store.tokens.set(value, {
        token: value,
        userId,
        scopes: options.scopes ?? [...ALL_SCOPES],
        kind,
        issuedAt,
        expiresAt: issuedAt + lifetime * 1000,
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
    posts: () => store.posts.map((post) => ({ ...post })),
    fetchedUrls: () => [...state.fetched],
    requests: () => [...state.seen],
  };
}
