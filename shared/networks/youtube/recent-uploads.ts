import * as z from 'zod';
import { readJson, type YouTubeApi } from './api.js';

const ChannelUploads = z.object({
  items: z
    .array(
      z.object({ contentDetails: z.object({ relatedPlaylists: z.object({ uploads: z.string().min(1) }) }) }),
    )
    .default([]),
});
const PlaylistItems = z.object({
  items: z
    .array(
      z.object({
        snippet: z.object({
          title: z.string(),
          publishedAt: z.string(),
          resourceId: z.object({ videoId: z.string().min(1) }),
        }),
      }),
    )
    .default([]),
});

/** How many of the channel's latest uploads a look-up reads (one page, 2 units with the channel read). */
export const RECENT_UPLOADS_READ = 25;

export interface RecentUpload {
  videoId: string;
  title: string;
  publishedAt: string;
}

/**
 * The channel's latest uploads, newest first: its uploads playlist (`channels?part=contentDetails`)
 * then one page of it (`playlistItems`). Undefined when YouTube does not answer usably.
 */
export async function recentUploads(context: {
  api: YouTubeApi;
  apiUrl: string;
  accessToken: string;
  signal: AbortSignal;
}): Promise<RecentUpload[] | undefined> {
  const channel = await context.api({
    method: 'GET',
    url: `${context.apiUrl}/channels`,
    accessToken: context.accessToken,
    query: { part: 'contentDetails', mine: 'true' },
    signal: context.signal,
  });
  const channels = channel.ok ? ChannelUploads.safeParse(await readJson(channel)) : undefined;
  const playlistId = channels?.success
    ? channels.data.items[0]?.contentDetails.relatedPlaylists.uploads
    : undefined;
  if (!playlistId) return undefined;
  const page = await context.api({
    method: 'GET',
    url: `${context.apiUrl}/playlistItems`,
    accessToken: context.accessToken,
    query: { part: 'snippet', playlistId, maxResults: String(RECENT_UPLOADS_READ) },
    signal: context.signal,
  });
  const items = page.ok ? PlaylistItems.safeParse(await readJson(page)) : undefined;
  if (!items?.success) return undefined;
  return items.data.items.map(({ snippet }) => ({
    videoId: snippet.resourceId.videoId,
    title: snippet.title,
    publishedAt: snippet.publishedAt,
  }));
}
