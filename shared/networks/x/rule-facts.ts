import type { DurationLimit, NetworkRuleFacts, VideoDurations } from '../../domain/platform-rules/helpers.js';

/**
 * X: 0.5 s to 125 minutes for a Post's video (`tweet_video`). 125 minutes is an X Premium account's
 * cap; a default account's is 20 minutes, which only X knows applies (its 403 at publish time).
 * Source: docs.x.com/x-api/media/quickstart/best-practices, "Size and duration limits".
 */
const X_VIDEO: DurationLimit = { minSeconds: 0.5, maxSeconds: 125 * 60, label: 'A video on X' };

export const xVideoDurations: VideoDurations = { video: X_VIDEO, thread: X_VIDEO };

/**
 * What the rest of the service knows of X's content rules without running them (its definition
 * holds these; the checks themselves, in rules.ts, run only where a post's content is checked).
 */
export const xRuleFacts: NetworkRuleFacts = {
  videoDurations: xVideoDurations,
  takesDocuments: false,
  takesUserTags: false,
};
