import type { IncomingHttpHeaders } from 'node:http';
import type { FakeYouTubeControlState, FakeYouTubeSettings } from './control.js';
import type { Reply } from './http.js';
import type { FakeYouTubeStore } from './store.js';

/** The fake's registered Google app (an OAuth web client). */
export interface FakeGoogleApp {
  clientId: string;
  clientSecret: string;
  /** Authorized redirect URIs (exact match); undefined accepts any absolute http(s) URL. */
  redirectUris?: readonly string[];
}

export interface RouteContext {
  store: FakeYouTubeStore;
  control: FakeYouTubeControlState;
  app: FakeGoogleApp;
  settings: FakeYouTubeSettings;
  /** The fake's own address: session URIs point at it. */
  baseUrl: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Handler = (context: RouteContext) => Reply | Promise<Reply>;

/** Scopes that allow reading the channel and its videos (youtube.md §1). */
export const READ_SCOPES = [
  'https://www.googleapis.com/auth/youtube.readonly',
  'https://www.googleapis.com/auth/youtube',
  'https://www.googleapis.com/auth/youtube.force-ssl',
];
/** Scopes that allow videos.insert (youtube.md §1). */
export const UPLOAD_SCOPES = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube',
  'https://www.googleapis.com/auth/youtube.force-ssl',
  'https://www.googleapis.com/auth/youtubepartner',
];
/**
 * Scopes that allow changing the channel's playlists (playlistItems.insert reference): not
 * `youtube.upload`, nor `youtube.readonly`.
 */
export const MANAGE_SCOPES = [
  'https://www.googleapis.com/auth/youtube',
  'https://www.googleapis.com/auth/youtube.force-ssl',
  'https://www.googleapis.com/auth/youtubepartner',
];
/** The one scope commentThreads.insert lists (its reference): `youtube.force-ssl`. */
export const COMMENT_SCOPES = ['https://www.googleapis.com/auth/youtube.force-ssl'];
/**
 * Scopes that allow the YouTube Analytics API's reports.query (its reference's authorization
 * table); `youtube.readonly` alone does not.
 */
export const ANALYTICS_SCOPES = [
  'https://www.googleapis.com/auth/yt-analytics.readonly',
  'https://www.googleapis.com/auth/yt-analytics-monetary.readonly',
  'https://www.googleapis.com/auth/youtube',
  'https://www.googleapis.com/auth/youtubepartner',
];
export const KNOWN_SCOPES = new Set([
  ...READ_SCOPES,
  ...UPLOAD_SCOPES,
  ...ANALYTICS_SCOPES,
  ...MANAGE_SCOPES,
  ...COMMENT_SCOPES,
]);

export function header(context: RouteContext, name: string): string | undefined {
  const value = context.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
