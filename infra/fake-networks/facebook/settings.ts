/** What the fake enforces and how its clock and processing run (index.ts sets the defaults). */
export interface FakeFacebookSettings {
  /** Short-lived user tokens: about an hour; long-lived: about 60 days (facebook-pages.md §1). */
  shortLivedSeconds: number;
  longLivedSeconds: number;
  codeLifetimeMs: number;
  /** Photos: 4 MB (1366046 past it). */
  maxImageBytes: number;
  maxVideoBytes: number;
  /** `message` length (63,206, §6). */
  maxMessage: number;
  /** A comment's `message` (8,000: what Facebook's comment box takes; the reference states none). */
  maxComment: number;
  /** Attached photos per post (10, our cap: Meta names none). */
  maxAttachedPhotos: number;
  /** Reels per Page per rolling 24 hours (30, §2.5). */
  reelsPerDay: number;
  /** Reels: 3–90 s (§2.5, the current page). */
  reelSeconds: { min: number; max: number };
  /** More posts than this from one Page within a minute: 368/1390008 ("going too fast"). */
  burstPerMinute: number;
  /** Status reads a video or reel stays in processing. */
  processingPolls: { video: number; reel: number };
  now: () => number;
}
