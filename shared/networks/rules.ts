import type { PlatformCheck, VideoDurations } from '../domain/platform-rules/helpers.js';
import type { Platform } from '../domain/platforms.js';
import { checkInstagram, instagramVideoDurations } from './instagram/rules.js';
import { checkLinkedIn, linkedInVideoDurations } from './linkedin/rules.js';
import { checkTikTok, tiktokVideoDurations } from './tiktok/rules.js';
import { checkTwitter, xVideoDurations } from './x/rules.js';
import { checkYouTube, youtubeVideoDurations } from './youtube/rules.js';

/** What a network's content rules are (networks/*.md): declared in `shared/networks/<net>/rules.ts`. */
export interface NetworkRules {
  /** Its text, shape and media checks (domain/platform-rules/index.ts runs them in a stable order). */
  check: PlatformCheck;
  /** Its video duration limits by post type. */
  videoDurations: VideoDurations;
  /** Whether it takes documents (a media kind every other network refuses). */
  takesDocuments: boolean;
}

/**
 * Every network's content rules, by platform: the domain's platform rules run them. Pure code
 * (no connector, no SDK), so the domain may import it; apart from definitions.ts because the rules
 * import the domain's post types, which derive from the definitions.
 */
export const NETWORK_RULES: Readonly<Record<Platform, NetworkRules>> = {
  twitter: { check: checkTwitter, videoDurations: xVideoDurations, takesDocuments: false },
  linkedin: { check: checkLinkedIn, videoDurations: linkedInVideoDurations, takesDocuments: true },
  instagram: { check: checkInstagram, videoDurations: instagramVideoDurations, takesDocuments: false },
  tiktok: { check: checkTikTok, videoDurations: tiktokVideoDurations, takesDocuments: false },
  youtube: { check: checkYouTube, videoDurations: youtubeVideoDurations, takesDocuments: false },
};
