import { checkVideoDurations } from '../../domain/platform-rules/index.js';
import type { MediaRef, Post } from '../../domain/posts.js';
import type { DeliveryMedia } from '../../ports/connector.js';
import { mediaRefsWithPaths } from '../posts/post-checks.js';
import type { Verdict } from './verdict.js';

/**
 * Step 4b, before any upload: every video whose duration is known now (stored media read when it
 * was confirmed, URL media read when it was just fetched) must fit the network's limit for the post
 * type. One that does not fails the post with the rule's code (VIDEO_TOO_LONG / VIDEO_TOO_SHORT,
 * origin service, not retryable) and the network is never called: this catches a post created before
 * its video's duration was known (a scheduled post naming media still pending, or URL media).
 * `media` is in the order of the post's references (resolve-media's order).
 */
export function videoDurationFailure(post: Post, media: readonly DeliveryMedia[]): Verdict | undefined {
  const durations = new Map<MediaRef, number>();
  mediaRefsWithPaths(post).forEach(({ ref }, index) => {
    const seconds = media[index]?.kind === 'video' ? media[index]?.stored?.durationSeconds : undefined;
    if (seconds !== undefined) durations.set(ref, seconds);
  });
  const [first] = checkVideoDurations(post, (ref) => durations.get(ref));
  if (!first) return undefined;
  return {
    kind: 'fail',
    error: {
      origin: 'service',
      code: first.code,
      message: `${first.field}: ${first.message}`,
      retryable: false,
    },
  };
}
