import { authorize, charge, isReply } from './api-auth.js';
import { readParts } from './api-parts.js';
import { googleError, googleErrors } from './http.js';
import { type Handler, READ_SCOPES, type RouteContext } from './route.js';
import { channelStatistics, VIDEOS_LIST_MAX_IDS, videoStatistics } from './statistics.js';
import type { FakeVideo } from './store.js';

/** GET /youtube/v3/channels?part=snippet,statistics&mine=true: the token's channel (1 unit). */
export const channelsList: Handler = (context) => {
  const token = authorize(context, READ_SCOPES);
  if (isReply(token)) return token;
  const params = context.url.searchParams;
  const parts = readParts(params, 'channels');
  if (isReply(parts)) return parts;
  if (params.get('mine') !== 'true' && !params.get('id')) {
    return googleErrors.invalid('missingRequiredParameter', 'No filter selected.');
  }
  const refused = charge(context, context.settings.costs.list);
  if (refused) return refused;
  const channel = context.store.channels.get(token.channelId);
  return {
    status: 200,
    json: {
      kind: 'youtube#channelListResponse',
      pageInfo: { totalResults: channel ? 1 : 0, resultsPerPage: 5 },
      items: channel
        ? [
            {
              kind: 'youtube#channel',
              id: channel.id,
              ...(parts.includes('contentDetails') && {
                contentDetails: { relatedPlaylists: { likes: '', uploads: uploadsPlaylistOf(channel.id) } },
              }),
              ...(parts.includes('snippet') && {
                snippet: {
                  title: channel.title,
                  description: '',
                  customUrl: channel.customUrl,
                  thumbnails: {
                    default: { url: channel.thumbnailUrl, width: 88, height: 88 },
                    high: { url: channel.thumbnailUrl, width: 800, height: 800 },
                  },
                },
              }),
              ...(parts.includes('statistics') && {
                statistics: channelStatistics(channel, context.store.videos, context.settings.now()),
              }),
            },
          ]
        : [],
    },
  };
};

/** A channel's uploads playlist id: `UU` and the rest of its `UC…` id, as YouTube's. */
export function uploadsPlaylistOf(channelId: string): string {
  return `UU${channelId.slice(2)}`;
}

/**
 * GET /youtube/v3/playlistItems?part=snippet&playlistId=UU…: the token's channel's uploads, newest
 * first (1 unit); another playlist is 404 playlistNotFound.
 */
export const playlistItemsList: Handler = (context) => {
  const token = authorize(context, READ_SCOPES);
  if (isReply(token)) return token;
  const params = context.url.searchParams;
  if (!params.get('part')) return googleErrors.invalid('required', 'Required parameter: part');
  if (params.get('playlistId') !== uploadsPlaylistOf(token.channelId)) {
    return googleError(404, 'playlistNotFound', 'The playlist identified with the request cannot be found.');
  }
  const refused = charge(context, context.settings.costs.list);
  if (refused) return refused;
  const max = Math.min(50, Math.max(0, Number(params.get('maxResults') ?? '5') || 5));
  const videos = context.store.videos
    .filter((video) => video.channelId === token.channelId && video.uploadStatus !== 'deleted')
    .reverse()
    .slice(0, max);
  return {
    status: 200,
    json: {
      kind: 'youtube#playlistItemListResponse',
      pageInfo: { totalResults: videos.length, resultsPerPage: max },
      items: videos.map((video) => ({
        kind: 'youtube#playlistItem',
        id: `PLI${video.id}`,
        snippet: {
          publishedAt: video.uploadedAt,
          channelId: video.channelId,
          title: video.snippet.title,
          description: video.snippet.description,
          playlistId: uploadsPlaylistOf(video.channelId),
          resourceId: { kind: 'youtube#video', videoId: video.id },
        },
      })),
    },
  };
};

/** One status read of a video: processing advances with each read, as YouTube's does over time. */
function advance(video: FakeVideo): void {
  if (video.uploadStatus !== 'uploaded') return;
  if (video.processingPollsLeft > 0) {
    video.processingPollsLeft -= 1;
    return;
  }
  video.uploadStatus = video.outcome.uploadStatus;
  if (video.outcome.uploadStatus === 'failed') video.failureReason = video.outcome.failureReason;
  if (video.outcome.uploadStatus === 'rejected') video.rejectionReason = video.outcome.rejectionReason;
}

export function videoResource(video: FakeVideo, parts: readonly string[]) {
  const processingStatus =
    video.uploadStatus === 'processed'
      ? 'succeeded'
      : video.uploadStatus === 'failed'
        ? 'failed'
        : video.uploadStatus === 'uploaded'
          ? 'processing'
          : 'terminated';
  return {
    kind: 'youtube#video',
    id: video.id,
    ...(parts.includes('snippet') && {
      snippet: { ...video.snippet, channelId: video.channelId, publishedAt: video.uploadedAt },
    }),
    ...(parts.includes('status') && {
      status: {
        uploadStatus: video.uploadStatus,
        ...(video.failureReason && { failureReason: video.failureReason }),
        ...(video.rejectionReason && { rejectionReason: video.rejectionReason }),
        privacyStatus: video.privacyStatus,
        selfDeclaredMadeForKids: video.madeForKids,
      },
    }),
    ...(parts.includes('processingDetails') && { processingDetails: { processingStatus } }),
  };
}

/**
 * GET /youtube/v3/videos?part=…&id=a,b: the token's channel's videos among the ids (1 unit, at most
 * 50 ids); a deleted video is left out of items, as YouTube leaves out an id it does not have.
 * part=statistics adds the counts, growing with the fake's clock (statistics.ts).
 */
export const videosList: Handler = (context: RouteContext) => {
  const token = authorize(context, READ_SCOPES);
  if (isReply(token)) return token;
  const params = context.url.searchParams;
  const parts = readParts(params, 'videos');
  if (isReply(parts)) return parts;
  const ids = (params.get('id') ?? '').split(',').filter(Boolean);
  if (ids.length === 0) return googleErrors.invalid('missingRequiredParameter', 'No filter selected.');
  if (ids.length > VIDEOS_LIST_MAX_IDS) {
    return googleError(
      400,
      'badRequest',
      `The id parameter takes at most ${VIDEOS_LIST_MAX_IDS} ids.`,
      'global',
    );
  }
  const refused = charge(context, context.settings.costs.list);
  if (refused) return refused;
  const videos = context.store.videos.filter(
    (video) =>
      ids.includes(video.id) && video.channelId === token.channelId && video.uploadStatus !== 'deleted',
  );
  for (const video of videos) advance(video);
  return {
    status: 200,
    json: {
      kind: 'youtube#videoListResponse',
      pageInfo: { totalResults: videos.length, resultsPerPage: videos.length },
      items: videos.map((video) => ({
        ...videoResource(video, parts),
        ...(parts.includes('statistics') && { statistics: videoStatistics(video, context.settings.now()) }),
      })),
    },
  };
};
