import { randomBytes } from 'node:crypto';

/** The fake's data: its app, creators, grants, publishes, and the failures tests injected. */

export interface FakeTikTokCreator {
  openId: string;
  username: string;
  displayName: string;
  avatarUrl: string;
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
}

export interface FakeAccessToken {
  token: string;
  openId: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

export interface FakeRefreshToken {
  token: string;
  openId: string;
  scopes: string[];
  expiresAt: number;
  /** False once rotated (used) or revoked. */
  active: boolean;
}

export interface FakeCode {
  openId: string;
  scopes: string[];
  redirectUri: string;
  expiresAt: number;
}

export type FakePublishStatus =
  | 'PROCESSING_UPLOAD'
  | 'PROCESSING_DOWNLOAD'
  | 'SEND_TO_USER_INBOX'
  | 'PUBLISH_COMPLETE'
  | 'FAILED';

export interface FakePublish {
  publishId: string;
  openId: string;
  kind: 'video' | 'photo';
  /**
   * direct: Direct Post (ends PUBLISH_COMPLETE); inbox: an upload to the creator's inbox (the inbox
   * video init, or a photo MEDIA_UPLOAD), which ends SEND_TO_USER_INBOX.
   */
  mode: 'direct' | 'inbox';
  postInfo: Record<string, unknown>;
  sourceInfo: Record<string, unknown>;
  /** Video: the upload URL's key, and what the chunk PUTs delivered so far. */
  uploadKey?: string;
  videoSize?: number;
  chunkSize?: number;
  totalChunks?: number;
  chunksReceived: number;
  uploadedBytes: number;
  /** The bytes received, for a test to compare with what was sent. */
  bytes: Buffer[];
  status: FakePublishStatus;
  /** Status polls answered "still processing" before the post completes or fails. */
  pollsLeft: number;
  failReason?: string;
  postId?: string;
  /** PUBLISH_COMPLETE, public, and its moderation held back: no post id until released. */
  inModeration?: boolean;
  createdAt: number;
}

/**
 * A public video of a creator that did not come through a publish here (a test's, or posted in
 * TikTok's app): `video/query` answers it like a published one.
 */
export interface FakeVideo {
  postId: string;
  openId: string;
  /** When it was posted (the fake's clock): its counts grow from then. */
  createdAt: number;
}

/** What an injected failure does to the next request of an endpoint. */
export type FakeTikTokFailure =
  /** An API error envelope with TikTok's `error.code`. */
  | { kind: 'error'; status: number; code: string }
  /** An OAuth error body (`{error, error_description}`), at the token and revoke endpoints. */
  | { kind: 'oauthError'; status: number; error: string }
  /** The connection is cut before anything is done. */
  | { kind: 'reset' }
  /** Done, and the answer held back `ms` (the client times out after TikTok acted). */
  | { kind: 'delayAfter'; ms: number };

export const FAKE_TIKTOK_ENDPOINTS = [
  'authorize',
  'token',
  'revoke',
  'user_info',
  'creator_info',
  'video_init',
  'inbox_video_init',
  'content_init',
  'upload',
  'status',
  'video_query',
] as const;
export type FakeTikTokEndpoint = (typeof FAKE_TIKTOK_ENDPOINTS)[number];

export interface FakeSeenRequest {
  endpoint: FakeTikTokEndpoint | 'unknown';
  method: string;
  path: string;
  contentRange?: string;
  contentType?: string;
  bodyBytes: number;
}

export class FakeTikTokState {
  readonly creators = new Map<string, FakeTikTokCreator>();
  readonly codes = new Map<string, FakeCode>();
  readonly accessTokens = new Map<string, FakeAccessToken>();
  readonly refreshTokens = new Map<string, FakeRefreshToken>();
  readonly publishes = new Map<string, FakePublish>();
  readonly seen: FakeSeenRequest[] = [];
  readonly failures = new Map<FakeTikTokEndpoint, FakeTikTokFailure[]>();
  /** Calls per token per endpoint, with their times, for the per-minute limits. */
  readonly calls = new Map<string, number[]>();
  /** How the next publishes end: a fail_reason each, in order; none left: they complete. */
  readonly nextFailReasons: string[] = [];
  /** Posts per creator per UTC day, for the daily cap. */
  readonly postsToday = new Map<string, number>();
  /** While true, public posts reach PUBLISH_COMPLETE without their id (moderation not done). */
  moderationHeld = false;
  /** The post ids the next public posts get (a test's choice); none left: made up. */
  readonly nextPostIds: string[] = [];
  /** Videos added by a test, by post id. */
  readonly videos = new Map<string, FakeVideo>();
  /** Post ids deleted on TikTok: video/query no longer answers them. */
  readonly deletedPostIds = new Set<string>();
  /** The video_ids of each video/query, in order, for a test to check the batches. */
  readonly videoQueries: string[][] = [];
  private counter = 0;

  /** When the fake started, on its clock: the creators' follower counts grow from then. */
  constructor(readonly startedAt = 0) {}

  secret(bytes = 16): string {
    return randomBytes(bytes).toString('hex');
  }

  nextId(): string {
    this.counter += 1;
    return `${Date.now()}${String(this.counter).padStart(4, '0')}`;
  }

  /** A 19-digit post id as TikTok's (7…), always above 2^53. */
  nextPostId(): string {
    const chosen = this.nextPostIds.shift();
    if (chosen) return chosen;
    this.counter += 1;
    return `73${String(Date.now()).slice(-13)}${String(this.counter).padStart(4, '0')}`;
  }

  take(endpoint: FakeTikTokEndpoint): FakeTikTokFailure | undefined {
    const queue = this.failures.get(endpoint);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.failures.delete(endpoint);
    return next;
  }

  /** Whether one more call fits this token's per-minute limit for the endpoint (and counts it). */
  allowCall(token: string, endpoint: string, limit: number, now: number): boolean {
    const key = `${token}:${endpoint}`;
    const recent = (this.calls.get(key) ?? []).filter((at) => at > now - 60_000);
    if (recent.length >= limit) {
      this.calls.set(key, recent);
      return false;
    }
    recent.push(now);
    this.calls.set(key, recent);
    return true;
  }
}
