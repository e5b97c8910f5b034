import type { IncomingMessage, ServerResponse } from 'node:http';
import { youtubeDefinition } from '../../../shared/networks/youtube/definition.js';
import { defineFakeNetwork } from '../fake-network.js';
import { startLoopbackServer } from '../shared/server.js';
import { reportsQuery } from './analytics-routes.js';
import { channelsList, videosList } from './api-routes.js';
import { captionsInsert, captionsList } from './caption-routes.js';
import { insertTopLevelComment, listTopLevelComments } from './comment-routes.js';
import {
  type FakeFailure,
  type FakeYouTubeControl,
  FakeYouTubeControlState,
  type FakeYouTubeEndpoint,
  type FakeYouTubeSettings,
  makeControl,
} from './control.js';
import { BodyTooLarge, googleErrors, type Reply, readBody, writeReply } from './http.js';
import { authorizeDecision, authorizePage, revoke, token } from './oauth-routes.js';
import { playlistItemsInsert, playlistItemsList } from './playlist-routes.js';
import type { FakeGoogleApp, Handler, RouteContext } from './route.js';
import { type FakeChannel, FakeYouTubeStore } from './store.js';
import { thumbnailsSet } from './thumbnail-routes.js';
import { putChunk, startSession } from './upload-routes.js';

export {
  FAKE_ANALYTICS_LAG_HOURS,
  FAKE_AVERAGE_VIEW_PERCENTAGE,
  FAKE_MINUTES_PER_VIEW,
  REPORTS_MAX_FILTER_IDS,
} from './analytics-report.js';
export { CAPTION_NAME_MAX_CHARS } from './caption-routes.js';
export { COMMENT_MAX_CHARS } from './comment-routes.js';
export type { FakeFailure, FakeVideoSeed, FakeYouTubeControl, FakeYouTubeEndpoint } from './control.js';
export { FAKE_YOUTUBE_ENDPOINTS } from './control.js';
export { googleError, googleErrors } from './http.js';
export { PLAYLIST_MAX_ITEMS } from './playlist-routes.js';
export { FAKE_VIEWS_PER_HOUR, VIDEOS_LIST_MAX_IDS } from './statistics.js';
export type { FakeChannel, FakeComment, FakePlaylist, FakeVideo } from './store.js';
export { THUMBNAIL_MAX_BYTES } from './thumbnail-routes.js';
export { CHUNK_UNIT } from './upload-routes.js';

export const FAKE_YOUTUBE_DEFAULT_CHANNEL: FakeChannel = {
  id: 'UCfakeChannel00000000001',
  title: 'Ada Makes Videos',
  customUrl: '@adamakesvideos',
  thumbnailUrl: 'https://yt3.ggpht.com/fake/ada=s800',
};

export interface YouTubeFakeOptions {
  clientId?: string;
  /** Random per start by default. */
  clientSecret?: string;
  redirectUris?: string[];
  /** Default: FAKE_YOUTUBE_DEFAULT_CHANNEL. */
  channels?: FakeChannel[];
  /** Default 10,000 units a day, 1,600 per insert, 1 per list (youtube.md §2). */
  dailyUnits?: number;
  insertCost?: number;
  uploadsPerDay?: number;
  /** Status reads answered `processing` after an upload (default 1). */
  processingPolls?: number;
  maxFileBytes?: number;
  /** The API project has not passed YouTube's audit: uploads are locked private (default false). */
  unauditedProject?: boolean;
  now?: () => number;
}

export interface YouTubeFake {
  /** YOUTUBE_API_URL. */
  apiUrl: string;
  /** YOUTUBE_UPLOAD_URL. */
  uploadUrl: string;
  /** YOUTUBE_ANALYTICS_API_URL (on the same loopback host: only the path tells the APIs apart). */
  analyticsUrl: string;
  /** GOOGLE_AUTHORIZE_URL. */
  authorizeUrl: string;
  /** GOOGLE_TOKEN_URL (the revoke endpoint is `/revoke` at its origin, as Google's). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  control: FakeYouTubeControl;
  stop(): Promise<void>;
}

interface Route {
  endpoint: FakeYouTubeEndpoint;
  handler: Handler;
}

const ROUTES: Record<string, Route> = {
  'GET /o/oauth2/v2/auth': { endpoint: 'authorize', handler: authorizePage },
  'POST /o/oauth2/v2/auth/decision': { endpoint: 'authorize', handler: authorizeDecision },
  'POST /token': { endpoint: 'token', handler: token },
  'POST /revoke': { endpoint: 'revoke', handler: revoke },
  'GET /youtube/v3/channels': { endpoint: 'channels.list', handler: channelsList },
  'GET /youtube/v3/videos': { endpoint: 'videos.list', handler: videosList },
  'GET /youtube/v3/playlistItems': { endpoint: 'playlistItems.list', handler: playlistItemsList },
  'POST /youtube/v3/playlistItems': { endpoint: 'playlistItems.insert', handler: playlistItemsInsert },
  'GET /youtube/v3/commentThreads': { endpoint: 'commentThreads.list', handler: listTopLevelComments },
  'POST /youtube/v3/commentThreads': { endpoint: 'commentThreads.insert', handler: insertTopLevelComment },
  'POST /upload/youtube/v3/thumbnails/set': { endpoint: 'thumbnails.set', handler: thumbnailsSet },
  'POST /upload/youtube/v3/captions': { endpoint: 'captions.insert', handler: captionsInsert },
  'GET /youtube/v3/captions': { endpoint: 'captions.list', handler: captionsList },
  'GET /v2/reports': { endpoint: 'reports.query', handler: reportsQuery },
  'POST /upload/youtube/v3/videos': { endpoint: 'upload.session', handler: startSession },
  'PUT /upload/youtube/v3/videos': { endpoint: 'upload.put', handler: (context) => putChunk(context) },
};

/**
 * An HTTP fake of Google's OAuth and the YouTube Data API's upload path (networks/youtube.md), on
 * loopback at a free port: consent page, code and refresh grants with PKCE, revoke, the channel,
 * resumable uploads (256 KiB chunks, 308 Range answers), processing that advances over status
 * reads, the project's quota in units and the channel's upload cap, and the statistics of videos
 * and channels (videos.list and channels.list with part=statistics), growing with its clock, and the
 * YouTube Analytics API's per-video report (reports.query) behind its data's lag; scheduled
 * publishing (status.publishAt), custom thumbnails (thumbnails.set), the channel's playlists
 * (playlistItems.insert and list), caption tracks (captions.insert and list) and top-level
 * comments (commentThreads.insert and list), each
 * with the scope and refusals its reference lists. Its control surface injects
 * failures per endpoint (answers, resets before or after the work, a chunk cut short, an answer
 * held back after the work was done) and reads what was uploaded and issued.
 */
export async function startYouTubeFake(options: YouTubeFakeOptions = {}): Promise<YouTubeFake> {
  const store = new FakeYouTubeStore();
  const settings: FakeYouTubeSettings = {
    dailyUnits: options.dailyUnits ?? 10_000,
    costs: {
      insert: options.insertCost ?? 1600,
      list: 1,
      thumbnail: 50,
      playlistInsert: 50,
      comment: 50,
      captionsInsert: 400,
      captionsList: 50,
    },
    uploadsPerDay: options.uploadsPerDay ?? 100,
    processingPolls: options.processingPolls ?? 1,
    accessTokenSeconds: 3599,
    codeLifetimeMs: 10 * 60 * 1000,
    maxFileBytes: options.maxFileBytes ?? 256 * 1024 * 1024,
    unauditedProject: options.unauditedProject ?? false,
    now: options.now ?? Date.now,
  };
  const app: FakeGoogleApp = {
    clientId: options.clientId ?? 'fake-google-client.apps.googleusercontent.com',
    clientSecret: options.clientSecret ?? `GOCSPX-${store.secret(18)}`,
    ...(options.redirectUris && { redirectUris: options.redirectUris }),
  };
  for (const channel of options.channels ?? [FAKE_YOUTUBE_DEFAULT_CHANNEL])
    store.channels.set(channel.id, channel);
  const controlState = new FakeYouTubeControlState();
  let baseUrl = '';

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', baseUrl);
    const route = ROUTES[`${request.method ?? ''} ${url.pathname}`];
    const failure: FakeFailure | undefined = route ? controlState.take(route.endpoint) : undefined;
    if (failure?.kind === 'reset') {
      controlState.seen.push(seen(route, request, url, 0));
      request.socket.destroy();
      return;
    }
    let body: Buffer;
    try {
      body = await readBody(request, settings.maxFileBytes + 64 * 1024);
    } catch (error) {
      if (error instanceof BodyTooLarge)
        writeReply(response, googleErrors.invalid('uploadTooLarge', 'Too large.'));
      else request.socket.destroy();
      return;
    }
    controlState.seen.push(seen(route, request, url, body.length));
    if (!route) {
      writeReply(response, googleErrors.notFound());
      return;
    }
    if (failure?.kind === 'reply') {
      writeReply(response, failure.reply);
      return;
    }
    const context: RouteContext = {
      store,
      control: controlState,
      app,
      settings,
      baseUrl,
      url,
      headers: request.headers,
      body,
    };
    if (failure?.kind === 'partial' && route.endpoint === 'upload.put') {
      putChunk(context, failure.keepBytes);
      request.socket.destroy();
      return;
    }
    const reply: Reply = await route.handler(context);
    if (failure?.kind === 'resetAfter') {
      request.socket.destroy();
      return;
    }
    if (failure?.kind === 'delayAfter') {
      server.later(failure.ms, () => writeReply(response, reply));
      return;
    }
    writeReply(response, reply);
  };

  const server = await startLoopbackServer(answer, (response) => {
    if (!response.headersSent) writeReply(response, googleErrors.invalid('backendError', 'Backend Error'));
  });
  baseUrl = server.baseUrl;

  return {
    apiUrl: `${baseUrl}/youtube/v3`,
    uploadUrl: `${baseUrl}/upload/youtube/v3`,
    analyticsUrl: `${baseUrl}/v2`,
    authorizeUrl: `${baseUrl}/o/oauth2/v2/auth`,
    tokenUrl: `${baseUrl}/token`,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    control: makeControl(controlState, store, settings),
    stop: server.stop,
  };
}

function seen(route: Route | undefined, request: IncomingMessage, url: URL, bodyBytes: number) {
  const contentRange = request.headers['content-range'];
  return {
    endpoint: route?.endpoint ?? ('unknown' as const),
    method: request.method ?? '',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    ...(typeof contentRange === 'string' && { contentRange }),
    bodyBytes,
  };
}

/** YouTube's fake for a whole host (../start.ts): the Data API, its upload host, the Analytics API and Google's OAuth. */
export const fakeNetwork = defineFakeNetwork({
  definition: youtubeDefinition,
  async start() {
    const fake = await startYouTubeFake();
    return {
      endpoints: {
        YOUTUBE_API_URL: fake.apiUrl,
        YOUTUBE_UPLOAD_URL: fake.uploadUrl,
        YOUTUBE_ANALYTICS_API_URL: fake.analyticsUrl,
        GOOGLE_AUTHORIZE_URL: fake.authorizeUrl,
        GOOGLE_TOKEN_URL: fake.tokenUrl,
      },
      apps: { GOOGLE: { clientId: fake.clientId, clientSecret: fake.clientSecret } },
      stop: fake.stop,
    };
  },
});
