import type { NetworkRules } from '../domain/platform-rules/helpers.js';
import type { PlatformId } from './definitions.js';
import { instagramRules } from './instagram/rules.js';
import { linkedInRules } from './linkedin/rules.js';
import { tiktokRules } from './tiktok/rules.js';
import { xRules } from './x/rules.js';
import { youtubeRules } from './youtube/rules.js';

/**
 * Each network's content checks, one line each: the third and last list a network is on, beside its
 * definition (definitions.ts) and its connector (registry.ts). They are apart from the definitions,
 * which every function reads, because X's counts text with twitter-text (about 50 KiB minified, with
 * its polyfills and emoji parser): only the functions that check a post's content import this file
 * (domain/platform-rules/index.ts), and test/unit/runtime/parts-in-bundles.test.ts keeps it so.
 */
export const CONTENT_RULES_OF_PLATFORM: Readonly<Record<PlatformId, NetworkRules>> = {
  twitter: xRules,
  linkedin: linkedInRules,
  instagram: instagramRules,
  tiktok: tiktokRules,
  youtube: youtubeRules,
};
