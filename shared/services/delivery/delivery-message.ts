import type { Post } from '../../domain/posts.js';
import type { DeliveryMessage } from '../../ports/queues.js';
import { referencedMediaIds } from '../posts/post-checks.js';

/**
 * A post's delivery message: which post, and what the worker reads with it (its account and
 * stored media), so the worker reads the post and those in one round trip. The post as read
 * decides: a message whose account or media no longer match it (the post was edited since) costs
 * the worker one more read, never a wrong one. The post's trace goes with it: the API request's.
 */
export function deliveryMessageOf(post: Post): DeliveryMessage {
  return {
    tenantId: post.tenantId,
    workspaceId: post.workspaceId,
    postId: post.postId,
    accountId: post.accountId,
    mediaIds: [...new Set(referencedMediaIds(post))],
    ...(post.trace && { trace: post.trace }),
  };
}

/** True when the message named exactly the account and stored media the post refers to. */
export function messageMatches(message: DeliveryMessage, post: Post): boolean {
  if (message.accountId !== post.accountId || !message.mediaIds) return false;
  const named = new Set(message.mediaIds);
  const referenced = new Set(referencedMediaIds(post));
  return named.size === referenced.size && [...referenced].every((id) => named.has(id));
}
