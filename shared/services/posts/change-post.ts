import { ConflictError, NotFoundError } from '../../domain/errors.js';
import { commentShape, waitingComment } from '../../domain/first-comment.js';
import { canonicalJson } from '../../domain/idempotency.js';
import type { PlatformOptions } from '../../domain/platform-options.js';
import { nextStatus, type PostEvent } from '../../domain/post-lifecycle.js';
import type {
  ContentItem,
  FirstCommentShape,
  LinkShape,
  MediaRef,
  Post,
  PostDraft,
  PostType,
  RequestedStatus,
} from '../../domain/posts.js';
import type { Principal } from '../../domain/tenancy.js';
import type { Clock } from '../../ports/clock.js';
import type { PostStore } from '../../ports/post-store.js';
import {
  assertAccountInWorkspace,
  assertReadyToSubmit,
  assertScheduleInFuture,
  referencedMediaIds,
} from './post-checks.js';

export interface PostChanges {
  scheduledAt?: string | null;
  content?: string | ContentItem[];
  media?: MediaRef[];
  postType?: PostType;
  status?: RequestedStatus;
  /** Replaces the post's options; null removes them. */
  platformOptions?: PlatformOptions | null;
  /** Replaces the first comment; null removes it. */
  firstComment?: FirstCommentShape | null;
  /** Replaces the link; null removes it. */
  link?: LinkShape | null;
  /** Replaces the caller's own id; null removes it. Never content: no review, no new checks. */
  externalId?: string | null;
}

/** Key order aside: a post read back from the table need not keep the order its maps were written in. */
function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

export function makeChangePost(deps: { posts: PostStore; clock: Clock }) {
  const load = async (principal: Principal, workspaceId: string, postId: string): Promise<Post> => {
    const post = await deps.posts.get(principal.tenant.tenantId, workspaceId, postId);
    if (!post) throw new NotFoundError();
    return post;
  };

  const save = async (previous: Post, next: Post): Promise<Post> => {
    const saved = {
      ...next,
      version: previous.version + 1,
      updatedAt: new Date(deps.clock.now()).toISOString(),
    };
    await deps.posts.update(saved, previous.version);
    return saved;
  };

  return {
    /**
     * PATCH a post:
     * 1. only draft, pending_approval and scheduled posts change (409 otherwise);
     * 2. merge the changes (platformOptions given replace the post's) and work out the next status
     *    (a `status` is a submit, anything else an edit);
     * 3. unless the result is a draft: scheduledAt ahead, platform rules, platformOptions and
     *    policies, as on create;
     * 4. write it if nobody else changed it meanwhile (409 conflict otherwise).
     */
    async update(
      principal: Principal,
      workspaceId: string,
      postId: string,
      changes: PostChanges,
    ): Promise<Post> {
      const post = await load(principal, workspaceId, postId);
      const merged: PostDraft = {
        platform: post.platform,
        postType: changes.postType ?? post.postType,
        content: changes.content ?? post.content,
        media: changes.media ?? post.media,
        ...(changes.scheduledAt !== null &&
          (changes.scheduledAt ?? post.scheduledAt) && {
            scheduledAt: changes.scheduledAt ?? post.scheduledAt,
          }),
      };
      const platformOptions =
        changes.platformOptions === undefined ? post.platformOptions : (changes.platformOptions ?? undefined);
      if (platformOptions) merged.platformOptions = platformOptions;
      const firstComment =
        changes.firstComment === undefined ? post.firstComment : (changes.firstComment ?? undefined);
      if (firstComment)
        merged.firstComment = {
          text: firstComment.text,
          ...(firstComment.media && { media: firstComment.media }),
        };
      const link = changes.link === undefined ? post.link : (changes.link ?? undefined);
      if (link) merged.link = link;
      if (changes.status === 'publish') delete merged.scheduledAt;
      // Options count as content for approval: who sees the post, or which Page posts it, is what a
      // reviewer approved as much as the text.
      const contentChanged =
        !sameJson(merged.content, post.content) ||
        !sameJson(merged.media, post.media) ||
        merged.postType !== post.postType ||
        !sameJson(merged.platformOptions, post.platformOptions) ||
        !sameJson(merged.firstComment, commentShape(post.firstComment)) ||
        !sameJson(merged.link, post.link);
      const context = await deps.posts.loadContext(
        principal.tenant.tenantId,
        workspaceId,
        post.accountId,
        referencedMediaIds(merged),
      );
      const requireApproval = context.workspace?.policies?.requireApproval ?? false;
      const event: PostEvent = changes.status
        ? { type: 'submit', requested: changes.status }
        : { type: 'edit' };
      const status = nextStatus(post.status, event, {
        requireApproval,
        scheduledAtAhead:
          merged.scheduledAt !== undefined && Date.parse(merged.scheduledAt) > deps.clock.now(),
        contentChanged,
      });
      if (status === 'scheduled' && !merged.scheduledAt) {
        throw new ConflictError('A scheduled post needs scheduledAt: send one with this change.');
      }
      if (status === 'draft') {
        if (changes.scheduledAt) assertScheduleInFuture(merged.scheduledAt, deps.clock.now());
      } else {
        assertAccountInWorkspace(post.accountId, context);
        assertReadyToSubmit(merged, post.accountId, context, {
          now: deps.clock.now(),
          publishNow: status === 'queued',
        });
      }
      const now = new Date(deps.clock.now()).toISOString();
      const enteringReview = status === 'pending_approval' && post.status !== 'pending_approval';
      const {
        scheduledAt: _dropped,
        platformOptions: _replaced,
        firstComment: _comment,
        link: _link,
        externalId: _externalId,
        ...withoutMerged
      } = post;
      const externalId =
        changes.externalId === undefined ? post.externalId : (changes.externalId ?? undefined);
      const { firstComment: newComment, ...mergedRest } = merged;
      return save(post, {
        ...withoutMerged,
        ...mergedRest,
        ...(newComment && { firstComment: waitingComment(newComment) }),
        ...(externalId && { externalId }),
        status,
        ...(enteringReview && { approval: { status: 'pending', requestedAt: now } }),
      });
    },

    /** DELETE: cancel a draft, pending, scheduled or queued post (409 for any other). */
    async cancel(principal: Principal, workspaceId: string, postId: string): Promise<Post> {
      const post = await load(principal, workspaceId, postId);
      const status = nextStatus(
        post.status,
        { type: 'cancel' },
        { requireApproval: false, scheduledAtAhead: false },
      );
      return save(post, { ...post, status });
    },

    /**
     * Approve or reject a pending post: approve moves it on (queued, or scheduled while scheduledAt
     * is still ahead), reject ends it; who decided, when and why is kept on the post.
     */
    async decide(
      principal: Principal,
      workspaceId: string,
      postId: string,
      decision: { approve: true } | { approve: false; reason: string },
    ): Promise<Post> {
      const post = await load(principal, workspaceId, postId);
      const scheduledAtAhead =
        post.scheduledAt !== undefined && Date.parse(post.scheduledAt) > deps.clock.now();
      const status = nextStatus(
        post.status,
        { type: decision.approve ? 'approve' : 'reject' },
        {
          requireApproval: true,
          scheduledAtAhead,
        },
      );
      const now = new Date(deps.clock.now()).toISOString();
      return save(post, {
        ...post,
        status,
        approval: {
          status: decision.approve ? 'approved' : 'rejected',
          requestedAt: post.approval?.requestedAt ?? post.createdAt,
          decidedAt: now,
          decidedBy: principal.agent.agentId,
          ...(!decision.approve && { reason: decision.reason }),
        },
      });
    },
  };
}
