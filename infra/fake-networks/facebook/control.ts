import { FailureQueues, type QueuedFailure } from '../shared/failure-injection.js';
import type { FakeFacebookSettings } from './settings.js';
import type {
  FakeComment,
  FakeEngagement,
  FakeFacebookStore,
  FakeFacebookUser,
  FakePhoto,
  FakePost,
  FakeToken,
  FakeVideo,
} from './store.js';

/** The fake's endpoints, by name, for failure injection and the request log. */
export const FAKE_FACEBOOK_ENDPOINTS = [
  'dialog',
  'token',
  'permissions',
  'accounts',
  'me',
  'feed',
  'photos',
  'videos',
  'reels',
  'rupload',
  'object',
  'published_posts',
  'page_videos',
  'comments.create',
  'comments.list',
] as const;
export type FakeFacebookEndpoint = (typeof FAKE_FACEBOOK_ENDPOINTS)[number];

export type FakeFailure = QueuedFailure;

export interface SeenRequest {
  endpoint: FakeFacebookEndpoint | 'unknown';
  method: string;
  /** The path without the version. */
  path: string;
  /** Query and form fields, without `access_token`. */
  params: Record<string, string>;
  /** The form's raw field names, in order (to see how `attached_media` was encoded). */
  formNames: string[];
  headers: Record<string, string>;
}

/** Every permission the fake's app may ask for (facebook-pages.md §1). */
export const FACEBOOK_PERMISSIONS = [
  'public_profile',
  'pages_show_list',
  'pages_manage_posts',
  'pages_read_engagement',
  'pages_manage_engagement',
  'pages_read_user_engagement',
  'publish_video',
  'read_insights',
  'business_management',
];

export class FakeFacebookControlState extends FailureQueues<FakeFacebookEndpoint, FakeFailure> {
  readonly seen: SeenRequest[] = [];
  /** Videos whose processing ends in error, by the order they are made (0 = the next one). */
  failNextProcessing = 0;
  /** Meta cannot read any link's page: feed posts with a `link` answer 1609005. */
  linkScrapeFails = false;
}

export interface FakeFacebookControl {
  /** The next `times` calls of `endpoint` get `failure` instead of the normal answer. */
  inject(endpoint: FakeFacebookEndpoint, failure: FakeFailure, times?: number): void;
  clearFailures(): void;
  /** The next video or reel made fails its processing. */
  failNextProcessing(): void;
  addUser(user: FakeFacebookUser): void;
  /** A Page token, as /me/accounts would give it, for tests that skip the consent. */
  issuePageToken(pageId: string, options?: { scopes?: string[] }): string;
  /** A long-lived user token of the person, for the Pages `pageIds`. */
  issueUserToken(userId: string, options?: { scopes?: string[]; pageIds?: string[] }): string;
  /** The person changed their password: every token of theirs stops working (190/460). */
  revokeTokensOf(userId: string): void;
  posts(): readonly FakePost[];
  photos(): readonly FakePhoto[];
  videos(): readonly FakeVideo[];
  seen(): readonly SeenRequest[];
  fetchedUrls(): readonly string[];
  /** The reactions, comments and shares a post or video (by its id) has. */
  setEngagement(id: string, engagement: Partial<FakeEngagement>): void;
  /** Posts a post as another app would (the look-up must not mistake it for ours). */
  addPost(post: Omit<FakePost, 'id'>): FakePost;
  /** Whether Meta can read links' pages (false: a feed post with a `link` answers 1609005). */
  setLinkScrapeFails(fails: boolean): void;
  /** A comment made outside the API (a person's, or the Page's from facebook.com). */
  addComment(comment: Omit<FakeComment, 'id'>): string;
  /** Every comment, oldest first. */
  comments(): readonly FakeComment[];
}

export function makeControl(
  state: FakeFacebookControlState,
  store: FakeFacebookStore,
  settings: FakeFacebookSettings,
): FakeFacebookControl {
  const token = (fields: Omit<FakeToken, 'token' | 'issuedAt' | 'revoked'>): string => {
    const value = store.secret(48);
    store.tokens.set(value, { ...fields, token: value, issuedAt: settings.now(), revoked: false });
    return value;
  };
  return {
    inject: (endpoint, failure, times = 1) => state.inject(endpoint, failure, times),
    clearFailures: () => state.clearFailures(),
    failNextProcessing: () => {
      state.failNextProcessing += 1;
    },
    addUser: (user) => {
      store.users.set(user.userId, user);
    },
    issuePageToken(pageId, options = {}) {
      const owner = store.pageOf(pageId);
      if (!owner) throw new Error(`No fake Page ${pageId}`);
      return token({
        kind: 'page',
        userId: owner.user.userId,
        pageId,
        pageIds: [pageId],
        scopes: options.scopes ?? [...FACEBOOK_PERMISSIONS],
      });
    },
    issueUserToken(userId, options = {}) {
      const user = store.users.get(userId);
      if (!user) throw new Error(`No fake user ${userId}`);
      return token({
        kind: 'long',
        userId,
        pageIds: options.pageIds ?? user.pages.map((page) => page.pageId),
        scopes: options.scopes ?? [...FACEBOOK_PERMISSIONS],
        expiresAt: settings.now() + settings.longLivedSeconds * 1000,
      });
    },
    revokeTokensOf(userId) {
      for (const held of store.tokens.values()) if (held.userId === userId) held.revoked = true;
    },
    posts: () => [...store.posts],
    photos: () => [...store.photos.values()],
    videos: () => [...store.videos.values()],
    seen: () => [...state.seen],
    fetchedUrls: () => [...store.fetchedUrls],
    setEngagement(id, engagement) {
      store.engagement.set(id, {
        reactions: 0,
        comments: 0,
        shares: 0,
        ...store.engagement.get(id),
        ...engagement,
      });
    },
    setLinkScrapeFails(fails) {
      state.linkScrapeFails = fails;
    },
    addComment(comment) {
      const id = `${comment.objectId.split('_').at(-1)}_${store.id('7')}`;
      store.comments.push({ ...comment, id });
      return id;
    },
    comments: () => store.comments.map((comment) => ({ ...comment })),
    addPost(post) {
      const made = { ...post, id: `${post.pageId}_${store.id('9')}` };
      store.posts.push(made);
      return made;
    },
  };
}
