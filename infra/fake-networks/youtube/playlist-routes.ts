import { authorize, charge, isReply } from './api-auth.js';
import { uploadsPlaylistOf } from './api-routes.js';
import { googleError, googleErrors, type Reply } from './http.js';
import { type Handler, MANAGE_SCOPES, READ_SCOPES, type RouteContext } from './route.js';
import type { FakePlaylist } from './store.js';

/** YouTube's cap on a playlist's items (playlistContainsMaximumNumberOfVideos). */
export const PLAYLIST_MAX_ITEMS = 5000;

function notFound(): Reply {
  return googleError(
    404,
    'playlistNotFound',
    'The playlist identified with the request cannot be found.',
    'youtube.playlistItem',
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface ListedItem {
  id: string;
  playlistId: string;
  videoId: string;
  at: string;
}

function itemResource(context: RouteContext, item: ListedItem) {
  const video = context.store.videos.find((candidate) => candidate.id === item.videoId);
  return {
    kind: 'youtube#playlistItem',
    id: item.id,
    snippet: {
      publishedAt: item.at,
      channelId: video?.channelId ?? '',
      title: video?.snippet.title ?? '',
      description: video?.snippet.description ?? '',
      playlistId: item.playlistId,
      resourceId: { kind: 'youtube#video', videoId: item.videoId },
    },
  };
}

/** The items of a playlist the token's channel can read: its uploads (newest first) or one of its playlists (in order). */
function itemsOf(context: RouteContext, channelId: string, playlistId: string): ListedItem[] | undefined {
  if (playlistId === uploadsPlaylistOf(channelId)) {
    return context.store.videos
      .filter((video) => video.channelId === channelId && video.uploadStatus !== 'deleted')
      .reverse()
      .map((video) => ({ id: `PLI${video.id}`, playlistId, videoId: video.id, at: video.uploadedAt }));
  }
  const playlist = context.store.playlists.get(playlistId);
  if (!playlist || playlist.channelId !== channelId) return undefined;
  return playlist.items.map((item) => ({ id: item.id, playlistId, videoId: item.videoId, at: item.addedAt }));
}

/**
 * GET /youtube/v3/playlistItems?part=snippet&playlistId=…[&videoId=…]: the channel's uploads
 * (newest first) or one of its own playlists (1 unit); `videoId` keeps only that video's items
 * (playlistItems.list reference). Another channel's playlist or an unknown one is 404 playlistNotFound.
 */
export const playlistItemsList: Handler = (context) => {
  const token = authorize(context, READ_SCOPES);
  if (isReply(token)) return token;
  const params = context.url.searchParams;
  if (!params.get('part')) return googleErrors.invalid('required', 'Required parameter: part');
  const all = itemsOf(context, token.channelId, params.get('playlistId') ?? '');
  if (!all) return notFound();
  const refused = charge(context, context.settings.costs.list);
  if (refused) return refused;
  const max = Math.min(50, Math.max(0, Number(params.get('maxResults') ?? '5') || 5));
  const videoId = params.get('videoId');
  const items = all.filter((item) => !videoId || item.videoId === videoId).slice(0, max);
  return {
    status: 200,
    json: {
      kind: 'youtube#playlistItemListResponse',
      pageInfo: { totalResults: items.length, resultsPerPage: max },
      items: items.map((item) => itemResource(context, item)),
    },
  };
};

/**
 * POST /youtube/v3/playlistItems?part=snippet (playlistItems.insert reference): needs `youtube`,
 * `youtube.force-ssl` or `youtubepartner` (403 insufficientPermissions with `youtube.upload`
 * alone); `snippet.playlistId` and `snippet.resourceId` required; the playlist must be the channel's
 * (404 playlistNotFound), the video must exist (404 videoNotFound), a full playlist is 403
 * playlistContainsMaximumNumberOfVideos. 50 units. A video already in the playlist is added again:
 * the insert is not idempotent.
 */
export const playlistItemsInsert: Handler = (context) => {
  const token = authorize(context, MANAGE_SCOPES);
  if (isReply(token)) return token;
  if (!context.url.searchParams.get('part'))
    return googleErrors.invalid('required', 'Required parameter: part');
  let body: unknown;
  try {
    body = JSON.parse(context.body.toString('utf8'));
  } catch {
    return googleErrors.invalid('parseError', 'Parse Error');
  }
  const snippet = isRecord(body) && isRecord(body.snippet) ? body.snippet : {};
  const resourceId = isRecord(snippet.resourceId) ? snippet.resourceId : {};
  const playlistId = typeof snippet.playlistId === 'string' ? snippet.playlistId : '';
  const videoId = typeof resourceId.videoId === 'string' ? resourceId.videoId : '';
  if (!playlistId)
    return googleError(
      400,
      'playlistIdRequired',
      'The request does not specify a playlist.',
      'youtube.playlistItem',
    );
  if (resourceId.kind !== 'youtube#video' || !videoId) {
    return googleError(
      400,
      'invalidResourceType',
      'The type ID specified in the resource ID is not supported.',
      'youtube.playlistItem',
    );
  }
  const playlist: FakePlaylist | undefined = context.store.playlists.get(playlistId);
  if (!playlist || playlist.channelId !== token.channelId) return notFound();
  const video = context.store.videos.find((item) => item.id === videoId && item.uploadStatus !== 'deleted');
  if (!video)
    return googleError(
      404,
      'videoNotFound',
      'The video that you are trying to add cannot be found.',
      'youtube.playlistItem',
    );
  if (playlist.items.length >= PLAYLIST_MAX_ITEMS) {
    return googleError(
      403,
      'playlistContainsMaximumNumberOfVideos',
      'The playlist already contains the maximum allowed number of items.',
      'youtube.playlistItem',
    );
  }
  const refused = charge(context, context.settings.costs.playlistInsert);
  if (refused) return refused;
  const item = {
    id: `PLI${context.store.secret(12)}`,
    videoId,
    addedAt: new Date(context.settings.now()).toISOString(),
  };
  playlist.items.push(item);
  return { status: 200, json: itemResource(context, { ...item, playlistId, at: item.addedAt }) };
};
