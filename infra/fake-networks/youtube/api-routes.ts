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

/** A scheduled video is private until its publishAt, and public from then on (videos reference, status.publishAt). */
export function privacyNow(video: FakeVideo, nowMs: number): string {
  return video.publishAt && Date.parse(video.publishAt) <= nowMs ? 'public' : video.privacyStatus;
}

export function videoResource(video: FakeVideo, parts: readonly string[], nowMs: number) {
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
        privacyStatus: privacyNow(video, nowMs),
        ...(video.publishAt && Date.parse(video.publishAt) > nowMs && { publishAt: video.publishAt }),
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
        ...videoResource(video, parts, context.settings.now()),
        ...(parts.includes('statistics') && { statistics: videoStatistics(video, context.settings.now()) }),
      })),
    },
  };
};
