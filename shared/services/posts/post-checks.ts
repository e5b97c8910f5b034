import { InvalidRequestError, PolicyViolationError, ValidationFailedError } from '../../domain/errors.js';
import { mediaKindOf } from '../../domain/media.js';
import { checkPlatformRules } from '../../domain/platform-rules/index.js';
import { checkPolicies } from '../../domain/policy-check.js';
import type { MediaKindLookup, MediaRef, PostDraft, RuleViolation } from '../../domain/posts.js';
import type { PostContext } from '../../ports/post-store.js';

/** Every media reference of a draft with its field path, top-level first. */
export function mediaRefsWithPaths(
  draft: Pick<PostDraft, 'content' | 'media'>,
): { ref: MediaRef; path: string }[] {
  const topLevel = draft.media.map((ref, index) => ({ ref, path: `media[${index}]` }));
  if (typeof draft.content === 'string') return topLevel;
  return [
    ...topLevel,
    ...draft.content.flatMap((item, itemIndex) =>
      (item.media ?? []).map((ref, index) => ({ ref, path: `content[${itemIndex}].media[${index}]` })),
    ),
  ];
}

export function referencedMediaIds(draft: Pick<PostDraft, 'content' | 'media'>): string[] {
  return mediaRefsWithPaths(draft).flatMap(({ ref }) => (ref.id ? [ref.id] : []));
}

export function mediaKindLookup(context: PostContext): MediaKindLookup {
  return (ref) => {
    if (ref.id) {
      const media = context.media.get(ref.id);
      return media ? mediaKindOf(media.mimeType) : undefined;
    }
    return ref.type;
  };
}

/** 400 when scheduledAt is not in the future; drafts may carry any planned time. */
export function assertScheduleInFuture(scheduledAt: string | undefined, now: number): void {
  if (scheduledAt && Date.parse(scheduledAt) <= now) {
    throw new InvalidRequestError('scheduledAt is in the past.', { scheduledAt: ['Must be in the future.'] });
  }
}

/** What the account and the referenced media say about the post (422 items). */
function contextViolations(
  draft: PostDraft,
  accountId: string,
  context: PostContext,
  publishNow: boolean,
): RuleViolation[] {
  const violations: RuleViolation[] = [];
  const account = context.account;
  if (!account) {
    violations.push({
      field: 'accountId',
      code: 'ACCOUNT_NOT_FOUND',
      message: `No account ${accountId} in this workspace.`,
    });
  } else {
    if (account.platform !== draft.platform) {
      violations.push({
        field: 'accountId',
        code: 'ACCOUNT_PLATFORM_MISMATCH',
        message: `Account ${accountId} is a ${account.platform} account, not ${draft.platform}.`,
      });
    }
    if (account.status !== 'connected') {
      violations.push({
        field: 'accountId',
        code: 'ACCOUNT_DISCONNECTED',
        message: `Account ${accountId} is disconnected; reconnect it in the dashboard.`,
      });
    }
  }
  for (const { ref, path } of mediaRefsWithPaths(draft)) {
    if (!ref.id) continue;
    const media = context.media.get(ref.id);
    if (!media) {
      violations.push({
        field: `${path}.id`,
        code: 'MEDIA_NOT_FOUND',
        message: `No media ${ref.id} in this workspace.`,
      });
    } else if (publishNow && media.status !== 'uploaded') {
      violations.push({
        field: `${path}.id`,
        code: 'MEDIA_NOT_UPLOADED',
        message: `Media ${ref.id} is still pending: upload and confirm it first.`,
      });
    }
  }
  return violations;
}

/**
 * The checks a post passes before it may wait for delivery (not drafts, which may be incomplete):
 * 1. scheduledAt lies ahead (400);
 * 2. the account and media exist and fit, and the network's rules hold: every violation at once (422);
 * 3. the workspace's policies allow it (403 policy_violation).
 */
export function assertReadyToSubmit(
  draft: PostDraft,
  accountId: string,
  context: PostContext,
  options: { now: number; publishNow: boolean },
): void {
  assertScheduleInFuture(draft.scheduledAt, options.now);
  const mediaKind = mediaKindLookup(context);
  const violations = [
    ...contextViolations(draft, accountId, context, options.publishNow),
    ...checkPlatformRules(draft, mediaKind),
  ];
  if (violations.length > 0) throw new ValidationFailedError(violations);
  const violation = checkPolicies(draft, context.workspace?.policies, { now: options.now, mediaKind });
  if (violation) throw new PolicyViolationError(violation.facet, violation.reason);
}
