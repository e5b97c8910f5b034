import type { DurationLimit, NetworkRuleFacts, VideoDurations } from '../../domain/platform-rules/helpers.js';

/**
 * LinkedIn: 3 s to 30 minutes. LinkedIn's video specifications (business.linkedin.com, video ads
 * specs, the figure LinkedIn's organic video help repeats); the Videos API page states no duration.
 */
const LINKEDIN_VIDEO: DurationLimit = { minSeconds: 3, maxSeconds: 30 * 60, label: 'A LinkedIn video' };

export const linkedInVideoDurations: VideoDurations = { video: LINKEDIN_VIDEO };

/**
 * What the rest of the service knows of LinkedIn's content rules without running them (its definition
 * holds these; the checks themselves, in rules.ts, run only where a post's content is checked).
 */
export const linkedInRuleFacts: NetworkRuleFacts = {
  videoDurations: linkedInVideoDurations,
  // LinkedIn's document posts (networks/linkedin.md §2).
  takesDocuments: true,
  takesUserTags: false,
};
