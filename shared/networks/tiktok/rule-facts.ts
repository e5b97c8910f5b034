import type { DurationLimit, NetworkRuleFacts, VideoDurations } from '../../domain/platform-rules/helpers.js';

/**
 * TikTok: the media transfer guide's ceiling, 10 minutes; each creator's own cap
 * (`max_video_post_duration_sec`, often lower) is TikTok's answer at publish time, checked by the
 * connector before it uploads.
 */
const TIKTOK_VIDEO: DurationLimit = { maxSeconds: 10 * 60, label: 'A TikTok video' };

export const tiktokVideoDurations: VideoDurations = { video: TIKTOK_VIDEO };

/**
 * What the rest of the service knows of TikTok's content rules without running them (its definition
 * holds these; the checks themselves, in rules.ts, run only where a post's content is checked).
 */
export const tiktokRuleFacts: NetworkRuleFacts = {
  videoDurations: tiktokVideoDurations,
  takesDocuments: false,
  takesUserTags: false,
};
