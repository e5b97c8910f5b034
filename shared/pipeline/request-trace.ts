import type { PostStore } from '../ports/post-store.js';
import type { ServiceDeps } from '../runtime/deps.js';

/**
 * The posts of one call, each written with the request's trace header (Post.trace): the outbox
 * puts it on the post's delivery messages, so the worker and its network call name the request's
 * trace (docs/operating.md "Traces"). A DynamoDB stream carries no trace of its own.
 */
function stampingTrace(posts: PostStore, trace: string): PostStore {
  return {
    loadContext: (...args) => posts.loadContext(...args),
    create: (post, idempotency) => posts.create({ ...post, trace }, idempotency),
    get: (...args) => posts.get(...args),
    getForDelivery: (...args) => posts.getForDelivery(...args),
    list: (...args) => posts.list(...args),
    update: (post, expectedVersion) => posts.update({ ...post, trace }, expectedVersion),
    getIdempotencyRecord: (...args) => posts.getIdempotencyRecord(...args),
    listOverdue: (...args) => posts.listOverdue(...args),
  };
}

/** The dependencies an operation gets for one call: the same, with posts that carry the call's trace when it has one. */
export function withRequestTrace(deps: ServiceDeps, trace: string | undefined): ServiceDeps {
  return trace ? { ...deps, posts: stampingTrace(deps.posts, trace) } : deps;
}
