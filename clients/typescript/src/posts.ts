import type { ClientContext } from './context.js';
import { WaitTimeoutError } from './errors.js';
import type { CreatedPost, CreatePostBody, Post, PostStatus } from './types.js';
import { unwrap } from './unwrap.js';

/** Statuses a post does not leave by itself: published, failed, cancelled, rejected. */
export const SETTLED_STATUSES: ReadonlySet<PostStatus> = new Set<PostStatus>([
  'published',
  'failed',
  'cancelled',
  'rejected',
]);

export interface CreateOptions {
  /**
   * The key that makes retries of this creation safe; a new random one per call by default. Pass
   * your own to make a creation safe across restarts of your process (the service keeps it 24 h).
   */
  idempotencyKey?: string;
}

export interface WaitOptions {
  /** How long to wait at most, ms (default 60 000); then WaitTimeoutError. */
  timeoutMs?: number;
  /** Time between reads, ms (default 1 000). */
  intervalMs?: number;
}

export type SchedulePostBody = Omit<CreatePostBody, 'status' | 'scheduledAt'>;

export function makePostHelpers({ api, timing }: ClientContext) {
  const createPost = async (
    workspaceId: string,
    body: CreatePostBody,
    options: CreateOptions = {},
  ): Promise<CreatedPost> =>
    unwrap(
      await api.POST('/v1/workspaces/{workspace_id}/posts', {
        params: {
          path: { workspace_id: workspaceId },
          // One key per logical creation: every retry of this call carries the same one.
          header: { 'Idempotency-Key': options.idempotencyKey ?? crypto.randomUUID() },
        },
        body,
      }),
    );

  const getPost = async (workspaceId: string, postId: string): Promise<Post> =>
    unwrap(
      await api.GET('/v1/workspaces/{workspace_id}/posts/{post_id}', {
        params: { path: { workspace_id: workspaceId, post_id: postId } },
      }),
    );

  return {
    /** Creates a post (status publish, scheduled or draft), with an Idempotency-Key. */
    createPost,
    getPost,

    /** Creates a post delivered at `scheduledAt` (any offset; the service stores UTC). */
    schedulePost: (
      workspaceId: string,
      body: SchedulePostBody,
      scheduledAt: Date | string,
      options: CreateOptions = {},
    ): Promise<CreatedPost> =>
      createPost(
        workspaceId,
        {
          ...body,
          status: 'scheduled',
          scheduledAt: typeof scheduledAt === 'string' ? scheduledAt : scheduledAt.toISOString(),
        },
        options,
      ),

    /** Moves a draft, pending or scheduled post to another time (PATCH: safe to retry). */
    reschedulePost: async (workspaceId: string, postId: string, scheduledAt: Date | string): Promise<Post> =>
      unwrap(
        await api.PATCH('/v1/workspaces/{workspace_id}/posts/{post_id}', {
          params: { path: { workspace_id: workspaceId, post_id: postId } },
          body: { scheduledAt: typeof scheduledAt === 'string' ? scheduledAt : scheduledAt.toISOString() },
        }),
      ),

    /**
     * Reads the post until it settles (published, failed, cancelled or rejected) and answers it;
     * WaitTimeoutError when the wait runs out first. A scheduled post settles only after its time.
     */
    waitForPost: async (workspaceId: string, postId: string, options: WaitOptions = {}): Promise<Post> => {
      const { timeoutMs = 60_000, intervalMs = 1_000 } = options;
      const deadline = timing.now() + timeoutMs;
      for (;;) {
        const post = await getPost(workspaceId, postId);
        if (SETTLED_STATUSES.has(post.status)) return post;
        if (timing.now() + intervalMs > deadline) throw new WaitTimeoutError(postId, post.status);
        await timing.sleep(intervalMs);
      }
    },
  };
}
