import type { DurationLimit, NetworkRuleFacts, VideoDurations } from '../../domain/platform-rules/helpers.js';

/**
 * YouTube: 12 hours for a verified channel (15 minutes until it is verified, which only YouTube
 * knows); a Short at most 3 minutes (support.google.com/youtube/answer/15424877).
 */
const YOUTUBE_VIDEO: DurationLimit = { maxSeconds: 12 * 60 * 60, label: 'A YouTube video' };
const YOUTUBE_SHORT: DurationLimit = { maxSeconds: 3 * 60, label: 'A YouTube Short' };

export const youtubeVideoDurations: VideoDurations = { video: YOUTUBE_VIDEO, short: YOUTUBE_SHORT };

/**
 * What the rest of the service knows of YouTube's content rules without running them (its definition
 * holds these; the checks themselves, in rules.ts, run only where a post's content is checked).
 */
export const youtubeRuleFacts: NetworkRuleFacts = {
  videoDurations: youtubeVideoDurations,
  takesDocuments: false,
  takesUserTags: false,
};
