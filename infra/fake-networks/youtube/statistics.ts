import type { FakeChannel, FakeVideo } from './store.js';

/** Views a processed video gains an hour in the fake: one a minute, so tests see growth over hours. */
export const FAKE_VIEWS_PER_HOUR = 60;
/** A channel's subscribers when its FakeChannel names none. */
export const FAKE_BASE_SUBSCRIBERS = 1_200;

/** The most ids one videos.list takes (comma-separated `id`). */
export const VIDEOS_LIST_MAX_IDS = 50;

function hoursSince(isoTime: string, nowMs: number): number {
  return Math.max(0, (nowMs - Date.parse(isoTime)) / 3_600_000);
}

function viewsOf(video: FakeVideo, nowMs: number): number {
  if (video.uploadStatus !== 'processed') return 0;
  return Math.floor(hoursSince(video.uploadedAt, nowMs) * FAKE_VIEWS_PER_HOUR);
}

/**
 * A video's `statistics` as YouTube sends them: counts as decimal strings (unsigned 64-bit),
 * growing with the fake's clock from its upload; favoriteCount always "0"; dislikeCount never (it
 * is private); likeCount and commentCount absent where the owner hid likes or turned comments off.
 */
export function videoStatistics(video: FakeVideo, nowMs: number) {
  const views = viewsOf(video, nowMs);
  return {
    viewCount: String(views),
    ...(!video.likesHidden && { likeCount: String(Math.floor(views / 20)) }),
    favoriteCount: '0',
    ...(!video.commentsDisabled && { commentCount: String(Math.floor(views / 50)) }),
  };
}

/** YouTube shows subscriber counts rounded down to three significant figures (since 2019). */
export function roundedDownToThreeFigures(count: number): number {
  if (count < 1000) return count;
  const scale = 10 ** (Math.floor(Math.log10(count)) - 2);
  return Math.floor(count / scale) * scale;
}

/**
 * A channel's `statistics`: its videos' views together, its processed videos, and subscribers that
 * grow with those views (one per 100); the count is left out when the owner hid it.
 */
export function channelStatistics(channel: FakeChannel, videos: readonly FakeVideo[], nowMs: number) {
  const own = videos.filter((video) => video.channelId === channel.id && video.uploadStatus === 'processed');
  const views = own.reduce((total, video) => total + viewsOf(video, nowMs), 0);
  const subscribers = (channel.subscribers ?? FAKE_BASE_SUBSCRIBERS) + Math.floor(views / 100);
  const hidden = channel.hiddenSubscriberCount ?? false;
  return {
    viewCount: String(views),
    ...(!hidden && { subscriberCount: String(roundedDownToThreeFigures(subscribers)) }),
    hiddenSubscriberCount: hidden,
    videoCount: String(own.length),
  };
}
