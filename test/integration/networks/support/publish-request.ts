import type { Post } from '../../../../shared/domain/posts.js';
import type { Account } from '../../../../shared/domain/tenancy.js';
import type { DeliveryMedia, PublishRequest } from '../../../../shared/ports/connector.js';
import type { MediaUrls } from '../../../../shared/ports/media-urls.js';

/**
 * The request the worker makes for a post's first attempt: the account's token, the media as
 * delivered (their bytes behind `mediaUrls`), the post id as client reference, 10 s to answer;
 * `overrides` last.
 */
export function firstAttemptRequest(
  post: Post,
  account: Account,
  accessToken: string,
  mediaUrls: MediaUrls,
  media: { delivered: DeliveryMedia }[],
  overrides: Partial<PublishRequest> = {},
): PublishRequest {
  return {
    post,
    account,
    credentials: { accessToken },
    mediaUrls,
    attempt: 1,
    clientReference: post.postId,
    media: media.map((item) => item.delivered),
    signal: AbortSignal.timeout(10_000),
    ...overrides,
  };
}
