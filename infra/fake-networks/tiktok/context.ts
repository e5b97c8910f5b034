import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from './http.js';
import type { FakeTikTokState } from './state.js';

export interface FakeTikTokApp {
  clientKey: string;
  clientSecret: string;
  /** Exact redirect URIs registered; undefined accepts any absolute http(s) URL. */
  redirectUris?: readonly string[];
  /**
   * The scopes TikTok approved for the app (its products: Login Kit's user.info.*, the Content
   * Posting API's video.publish with Direct Post, video.upload; the Display API's video.list and
   * user.info.stats): an authorization naming another
   * is refused with `invalid_scope`.
   */
  scopes: readonly string[];
}

export interface FakeTikTokSettings {
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  codeLifetimeMs: number;
  /**
   * Per token per minute: creator_info 20, init 6, status 30 (networks/tiktok.md); per app per
   * minute (Rate Limits page, a one-minute sliding window): video_query and user_info, 600 each
   * when not given (FAKE_TIKTOK_APP_PER_MINUTE).
   */
  perMinute: { creator_info: number; init: number; status: number; video_query?: number; user_info?: number };
  /** FILE_UPLOAD chunk rules: 5–64 MB chunks, the last up to 128 MB, 1–1000 chunks. */
  minChunkBytes: number;
  maxChunkBytes: number;
  maxLastChunkBytes: number;
  /** Status polls answered still processing once the media are in (default 1). */
  processingPolls: number;
  /** Posts per creator per day (about 15, shared across apps). */
  dailyPostCap: number;
  /** Photo URL prefixes verified for the app; undefined accepts any http(s) URL. */
  verifiedUrlPrefixes?: readonly string[];
  now: () => number;
}

export interface RouteContext {
  state: FakeTikTokState;
  app: FakeTikTokApp;
  settings: FakeTikTokSettings;
  baseUrl: string;
  url: URL;
  method: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The upload key of `PUT /upload/{key}`. */
  param?: string;
}

/** TikTok's default per-app limit of video/query and user/info a minute. */
export const FAKE_TIKTOK_APP_PER_MINUTE = 600;

export type Handler = (context: RouteContext) => Reply | Promise<Reply>;

export const FAKE_TIKTOK_SCOPES = [
  'user.info.basic',
  'user.info.profile',
  'user.info.stats',
  'video.list',
  'video.publish',
  'video.upload',
];
