import type { DurationLimit, NetworkRuleFacts, VideoDurations } from '../../domain/platform-rules/helpers.js';

/** Instagram: IG User Media reference, "Reel Specifications": 3 seconds to 15 minutes. */
const INSTAGRAM_REEL: DurationLimit = { minSeconds: 3, maxSeconds: 15 * 60, label: 'An Instagram reel' };
/** Instagram: IG User Media reference, "Story Video Specifications": 3 to 60 seconds. */
const INSTAGRAM_STORY: DurationLimit = {
  minSeconds: 3,
  maxSeconds: 60,
  label: 'An Instagram story video',
};

/** Carousel videos are not listed: Meta's current reference gives no duration for them. */
export const instagramVideoDurations: VideoDurations = { reel: INSTAGRAM_REEL, story: INSTAGRAM_STORY };

/**
 * What the rest of the service knows of Instagram's content rules without running them (its definition
 * holds these; the checks themselves, in rules.ts, run only where a post's content is checked).
 */
export const instagramRuleFacts: NetworkRuleFacts = {
  videoDurations: instagramVideoDurations,
  takesDocuments: false,
  // Only Instagram tags people on a photo (networks/instagram.md §2, `user_tags`).
  takesUserTags: true,
};
