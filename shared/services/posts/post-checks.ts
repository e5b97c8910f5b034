import {
  InvalidRequestError,
  NotFoundError,
  PolicyViolationError,
  ValidationFailedError,
} from '../../domain/errors.js';
import { mediaKindOf } from '../../domain/media.js';
import type { NetworkOptions } from '../../domain/network-options.js';
import { platformOptionsViolations } from '../../domain/platform-options.js';
import { checkPlatformRules, type VideoDurationLookup } from '../../domain/platform-rules/index.js';
import type { PolicyViolation } from '../../domain/policies.js';
import { checkPolicies } from '../../domain/policy-check.js';
import type { MediaKindLookup, MediaRef, PostDraft, RuleViolation } from '../../domain/posts.js';
import type { NetworkDefinition } from '../../networks/definition.js';
import { definitionOf } from '../../networks/definitions.js';
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

/** Where a post references media beside its content: what the worker hands the connector it as. */
export type SideMediaRole =
  | { kind: 'comment'; index: number }
  | { kind: 'link_thumbnail' }
  | { kind: 'option'; name: string };

type SideMediaDraft = Pick<PostDraft, 'platform' | 'platformOptions' | 'firstComment' | 'link'>;

/**
 * The media a post references beside its content, with their field paths: its first comment's, its
 * link's thumbnail, and those its network's options name (NetworkOptions.media). They exist and are
 * uploaded like the content's, and reach the connector apart from `media` (whose order is the content's).
 */
export function sideMediaRefs(draft: SideMediaDraft): { ref: MediaRef; path: string; role: SideMediaRole }[] {
  const comment = (draft.firstComment?.media ?? []).map((ref, index) => ({
    ref,
    path: `firstComment.media[${index}]`,
    role: { kind: 'comment' as const, index },
  }));
  const thumbnail = draft.link?.thumbnail
    ? [{ ref: draft.link.thumbnail, path: 'link.thumbnail', role: { kind: 'link_thumbnail' as const } }]
    : [];
  const options = optionMediaOf(draft);
  const named = Object.entries(options).map(([name, ref]) => ({
    ref,
    path: `platformOptions.${draft.platform}.${name}`,
    role: { kind: 'option' as const, name },
  }));
  return [...comment, ...thumbnail, ...named];
}

/** The media the post's options for its own network name (NetworkOptions.media), by name. */
function optionMediaOf(
  draft: Pick<PostDraft, 'platform' | 'platformOptions'>,
): Readonly<Record<string, MediaRef>> {
  const options = draft.platformOptions?.[draft.platform];
  const declared: NetworkOptions = definitionOf(draft.platform).platformOptions;
  return options && declared.media ? declared.media(options) : {};
}

/** Every stored media id a post references: its content's and its side media's. */
export function referencedMediaIds(
  draft: Pick<PostDraft, 'content' | 'media'> & Partial<SideMediaDraft>,
): string[] {
  const side = draft.platform ? sideMediaRefs(draft as SideMediaDraft) : [];
  return [...mediaRefsWithPaths(draft), ...side].flatMap(({ ref }) => (ref.id ? [ref.id] : []));
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

/** A referenced video's duration, as read when it was confirmed or imported (URL media: unknown yet). */
export function videoDurationLookup(context: PostContext): VideoDurationLookup {
  return (ref) => {
    const media = ref.id ? context.media.get(ref.id) : undefined;
    return media && mediaKindOf(media.mimeType) === 'video' ? media.durationSeconds : undefined;
  };
}

/** The message of a scheduledAt that is not ahead: a 400 `details` entry, or a validation item. */
const SCHEDULE_NOT_AHEAD = 'Must be in the future.';

/** A scheduledAt that is not in the future, as an item of the same shape as a rule violation. */
export function scheduleViolation(scheduledAt: string | undefined, now: number): RuleViolation | undefined {
  if (!scheduledAt || Date.parse(scheduledAt) > now) return undefined;
  return { field: 'scheduledAt', code: 'SCHEDULED_AT_IN_PAST', message: SCHEDULE_NOT_AHEAD };
}

function scheduleError(violation: RuleViolation): InvalidRequestError {
  return new InvalidRequestError('scheduledAt is in the past.', { [violation.field]: [violation.message] });
}

/** 400 when scheduledAt is not in the future; drafts may carry any planned time. */
export function assertScheduleInFuture(scheduledAt: string | undefined, now: number): void {
  const violation = scheduleViolation(scheduledAt, now);
  if (violation) throw scheduleError(violation);
}

/**
 * The account a post names must be one of this workspace's: otherwise 404 not_found naming it, on
 * create, validate and change alike (drafts included). It is not a rule of the network (a 422 item)
 * but a reference to nothing, as an unknown post id is; another tenant's account looks the same.
 */
export function assertAccountInWorkspace(accountId: string, context: Pick<PostContext, 'account'>): void {
  if (!context.account) throw new NotFoundError(`No account ${accountId} in this workspace.`);
}

/**
 * What a draft is checked for too (a 422 item): its account, which exists
 * ({@link assertAccountInWorkspace}), is of the post's network. A draft cannot change its account
 * later, so one on another network could never be submitted; whether the account is connected is
 * left to the submit.
 */
export function draftAccountViolations(
  draft: Pick<PostDraft, 'platform'>,
  accountId: string,
  context: Pick<PostContext, 'account'>,
): RuleViolation[] {
  const account = context.account;
  if (!account || account.platform === draft.platform) return [];
  return [
    {
      field: 'accountId',
      code: 'ACCOUNT_PLATFORM_MISMATCH',
      message: `Account ${accountId} is a ${account.platform} account, not ${draft.platform}.`,
    },
  ];
}

/**
 * The scopes the network's comments need that the account's connect did not grant. A sandbox
 * account has none to grant, and an account whose grant was not recorded is given the benefit of
 * the doubt (the comment fails on its own if the network refuses it).
 */
function commentScopesMissing(draft: PostDraft, context: Pick<PostContext, 'account'>): string[] {
  const definition: NetworkDefinition = definitionOf(draft.platform);
  const needed: readonly string[] = definition.firstComment?.scopes ?? [];
  const granted = context.account?.scopes;
  if (!draft.firstComment || needed.length === 0 || !granted || context.account?.sandbox) return [];
  return needed.filter((scope) => !granted.includes(scope));
}

/** The scopes the post's options need (NetworkOptions.scopes) that the account's connect did not grant. */
function optionScopesMissing(draft: PostDraft, context: Pick<PostContext, 'account'>): string[] {
  const options = draft.platformOptions?.[draft.platform];
  const declared: NetworkOptions = definitionOf(draft.platform).platformOptions;
  const granted = context.account?.scopes;
  if (!options || !declared.scopes || !granted || context.account?.sandbox) return [];
  return declared.scopes(options).filter((scope) => !granted.includes(scope));
}

/** What the account and the referenced media say about the post (422 items). */
function contextViolations(
  draft: PostDraft,
  accountId: string,
  context: PostContext,
  publishNow: boolean,
): RuleViolation[] {
  const violations: RuleViolation[] = draftAccountViolations(draft, accountId, context);
  if (context.account && context.account.status !== 'connected') {
    violations.push({
      field: 'accountId',
      code: 'ACCOUNT_DISCONNECTED',
      message: `Account ${accountId} is disconnected; reconnect it in the dashboard.`,
    });
  }
  const optionScopes = optionScopesMissing(draft, context);
  if (optionScopes.length > 0) {
    violations.push({
      field: `platformOptions.${draft.platform}`,
      code: 'PLATFORM_OPTION_NEEDS_RECONNECT',
      message: `Account ${accountId} was connected without the permission these options need (${optionScopes.join(', ')}): reconnect it to grant it, or leave the options out.`,
    });
  }
  const missingScopes = commentScopesMissing(draft, context);
  if (missingScopes.length > 0) {
    violations.push({
      field: 'firstComment',
      code: 'FIRST_COMMENT_NEEDS_RECONNECT',
      message: `Account ${accountId} was connected without the permission comments need (${missingScopes.join(', ')}): reconnect it through an app the network granted that permission (docs/first-comment.md), or leave out the first comment.`,
    });
  }
  for (const { ref, path } of [...mediaRefsWithPaths(draft), ...sideMediaRefs(draft)]) {
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
 * What the checks a post passes before it may wait for delivery found, each kind as the answer it
 * leads to: `schedule` is a 400, `violations` a 422, `policy` a 403. Every kind is looked at, so a
 * caller that only reports (validatePost) sees every problem at once; one that refuses answers the
 * first kind found, in this order.
 */
export interface SubmitFindings {
  /** scheduledAt is not ahead of the clock (400 INVALID_REQUEST `details.scheduledAt`). */
  schedule?: RuleViolation;
  /** The account and media in context, and the network's rules: every violation (422 `errors[]`). */
  violations: RuleViolation[];
  /** The first workspace policy broken, in POLICY_FACET_ORDER (403 policy_violation). */
  policy?: PolicyViolation;
}

/**
 * The checks a post passes before it may wait for delivery (not drafts, which may be incomplete):
 * 1. scheduledAt lies ahead (400);
 * 2. the account and media exist and fit, the network's rules hold and platformOptions are the
 *    network's own: every violation at once (422);
 * 3. the workspace's policies allow it (403 policy_violation).
 * Pure: nothing is thrown or written; {@link assertNoFindings} turns the result into the refusal.
 */
export function findSubmitProblems(
  draft: PostDraft,
  accountId: string,
  context: PostContext,
  options: { now: number; publishNow: boolean },
): SubmitFindings {
  const mediaKind = mediaKindLookup(context);
  const schedule = scheduleViolation(draft.scheduledAt, options.now);
  const policy = checkPolicies(draft, context.workspace?.policies, { now: options.now, mediaKind });
  return {
    ...(schedule && { schedule }),
    violations: [
      ...contextViolations(draft, accountId, context, options.publishNow),
      ...checkPlatformRules(draft, mediaKind, videoDurationLookup(context)),
      ...platformOptionsViolations(draft),
    ],
    ...(policy && { policy }),
  };
}

/** Refuses with the first kind of problem found: 400 for the schedule, then 422, then 403. */
export function assertNoFindings(findings: SubmitFindings): void {
  if (findings.schedule) throw scheduleError(findings.schedule);
  if (findings.violations.length > 0) throw new ValidationFailedError(findings.violations);
  if (findings.policy) throw new PolicyViolationError(findings.policy.facet, findings.policy.reason);
}

/** {@link findSubmitProblems}, refusing the post at the first kind of problem (as create and PATCH do). */
export function assertReadyToSubmit(
  draft: PostDraft,
  accountId: string,
  context: PostContext,
  options: { now: number; publishNow: boolean },
): void {
  assertNoFindings(findSubmitProblems(draft, accountId, context, options));
}
