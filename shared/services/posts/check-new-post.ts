import { NotFoundError } from '../../domain/errors.js';
import type { PlatformOptions } from '../../domain/platform-options.js';
import type { Platform } from '../../domain/platforms.js';
import { initialStatus } from '../../domain/post-lifecycle.js';
import type {
  ContentItem,
  FirstCommentShape,
  LinkShape,
  MediaRef,
  PostDraft,
  PostStatus,
  PostType,
  RequestedStatus,
} from '../../domain/posts.js';
import type { Clock } from '../../ports/clock.js';
import type { PostStore } from '../../ports/post-store.js';
import {
  assertAccountInWorkspace,
  draftAccountViolations,
  findSubmitProblems,
  referencedMediaIds,
  type SubmitFindings,
} from './post-checks.js';

/** The body of a create (and of a validate, which takes the same body). */
export interface CreatePostInput {
  platform: Platform;
  accountId: string;
  status: RequestedStatus;
  postType: PostType;
  content: string | ContentItem[];
  scheduledAt?: string;
  media?: MediaRef[];
  platformOptions?: PlatformOptions;
  firstComment?: FirstCommentShape;
  link?: LinkShape;
  externalId?: string;
}

/** What a create of the input would store and what stands in its way; nothing is written. */
export interface NewPostCheck {
  draft: PostDraft;
  /** The status the post starts in once accepted: queued, scheduled, draft or pending_approval. */
  status: PostStatus;
  findings: SubmitFindings;
}

/**
 * The check step of a create, shared by createPost (which refuses on the first finding and writes)
 * and validatePost (which reports every finding and writes nothing), so the two cannot drift:
 * 1. read the workspace, account and media in one round trip (404 when the workspace is gone, or
 *    when the account is none of the workspace's, drafts included);
 * 2. unless it is a draft: scheduledAt ahead, the account, media and network rules, the policies;
 *    a draft's account must be the workspace's, of the post's network (as at submit);
 * 3. the initial status, pending_approval when the workspace requires approval.
 */
export function makeCheckNewPost(deps: { posts: PostStore; clock: Clock }) {
  return async function checkNewPost(
    tenantId: string,
    workspaceId: string,
    input: CreatePostInput,
  ): Promise<NewPostCheck> {
    const draft: PostDraft = {
      platform: input.platform,
      postType: input.postType,
      content: input.content,
      media: input.media ?? [],
      ...(input.scheduledAt && { scheduledAt: input.scheduledAt }),
      ...(input.platformOptions && { platformOptions: input.platformOptions }),
      ...(input.firstComment && { firstComment: input.firstComment }),
      ...(input.link && { link: input.link }),
    };
    const context = await deps.posts.loadContext(
      tenantId,
      workspaceId,
      input.accountId,
      referencedMediaIds(draft),
    );
    if (!context.workspace) throw new NotFoundError();
    assertAccountInWorkspace(input.accountId, context);
    // A draft may be incomplete: it is checked when it is submitted, but for its account.
    const findings: SubmitFindings =
      input.status === 'draft'
        ? { violations: draftAccountViolations(draft, input.accountId, context) }
        : findSubmitProblems(draft, input.accountId, context, {
            now: deps.clock.now(),
            publishNow: input.status === 'publish',
          });
    const status = initialStatus(input.status, {
      requireApproval: context.workspace.policies?.requireApproval ?? false,
    });
    return { draft, status, findings };
  };
}
