import type { InstagramPostType } from './container-params.js';
import type { GraphContext } from './graph.js';
import { recentMedia } from './graph.js';
import { INSTAGRAM_CLOCK_SKEW_MS, instagramProfileUrl } from './limits.js';

/** What a published container became: the media id and its permalink. */
export interface FoundMedia {
  platformPostId: string;
  platformPostUrl: string;
}

const PRODUCT_TYPE: Readonly<Record<InstagramPostType, string>> = {
  image: 'FEED',
  carousel: 'FEED',
  reel: 'REELS',
  story: 'STORY',
};

/**
 * The account's media made since `since` (epoch ms) with this caption and kind: how a container
 * Instagram reports PUBLISHED is matched to its media id, since a container does not name it.
 * Stories are read from `/stories` (they carry no caption), the rest from `/media`. Undefined when
 * no such media is listed; throws what the listing threw.
 */
export async function findPublishedMedia(
  context: GraphContext,
  wanted: { postType: InstagramPostType; caption: string; since: number },
): Promise<FoundMedia | undefined> {
  const since = (Number.isFinite(wanted.since) ? wanted.since : 0) - INSTAGRAM_CLOCK_SKEW_MS;
  const listed = await recentMedia(context, wanted.postType === 'story' ? 'stories' : 'media');
  const match = (listed ?? []).find((media) => {
    const at = media.timestamp ? Date.parse(media.timestamp) : Number.NaN;
    if (!(at >= since)) return false;
    if (media.media_product_type && media.media_product_type !== PRODUCT_TYPE[wanted.postType]) return false;
    if (wanted.postType === 'carousel' && media.media_type && media.media_type !== 'CAROUSEL_ALBUM')
      return false;
    return wanted.postType === 'story' || (media.caption ?? '') === wanted.caption;
  });
  if (!match) return undefined;
  return {
    platformPostId: match.id,
    platformPostUrl: match.permalink ?? instagramProfileUrl(context.userId),
  };
}
