import type { PublishOutcome } from '../../ports/connector.js';
import { tiktokPostUrl, tiktokProfileUrl } from './api.js';
import { TIKTOK_POST_ID_CHECK_SECONDS } from './limits.js';
import type { TikTokOptions } from './options-schema.js';
import { type TikTokProgress, toPublishProgress } from './progress.js';

type Published = Extract<PublishOutcome, { kind: 'published' | 'published_without_id' }>;

/**
 * A PUBLISH_COMPLETE publish as the post TikTok made (its status page, "publicaly_available_post_id":
 * an id is given only to a post for public viewership, once moderation approves it):
 * - with its post id: named by it, with its web URL;
 * - public, no id yet: moderation is still looking at it (usually a minute, sometimes hours), so it
 *   is published with its id to come: the worker asks again with this progress (look-up.ts);
 * - any other privacy level never gets an id: named by its publish id, and links to the profile.
 */
export function publishedOutcome(
  progress: TikTokProgress,
  privacyLevel: TikTokOptions['privacyLevel'],
  handle: string,
  postId: string | undefined,
): Published {
  if (postId) {
    return {
      kind: 'published',
      platformPostId: postId,
      platformPostUrl: tiktokPostUrl(handle, progress.kind, postId),
    };
  }
  if (privacyLevel === 'PUBLIC_TO_EVERYONE') {
    const { v, ref, kind, publishId } = progress;
    return {
      kind: 'published_without_id',
      progress: toPublishProgress({ v, ref, kind, handle, ...(publishId && { publishId }) }),
      checkAfterSeconds: TIKTOK_POST_ID_CHECK_SECONDS,
    };
  }
  return {
    kind: 'published',
    platformPostId: progress.publishId ?? '',
    platformPostUrl: tiktokProfileUrl(handle),
  };
}
