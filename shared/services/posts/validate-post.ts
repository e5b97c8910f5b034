import { PolicyViolationError } from '../../domain/errors.js';
import type { PolicyFacet } from '../../domain/policies.js';
import type { PostStatus, RuleViolation } from '../../domain/posts.js';
import type { Principal } from '../../domain/tenancy.js';
import type { Clock } from '../../ports/clock.js';
import type { PostStore } from '../../ports/post-store.js';
import { type CreatePostInput, makeCheckNewPost } from './check-new-post.js';

/** The members of the 403 policy_violation envelope a create would answer, without `error`. */
export interface PolicyViolationReport {
  facet: PolicyFacet;
  reason: string;
  message: string;
}

export interface PostValidation {
  /** True when a create of the same body would be accepted (201). */
  valid: boolean;
  /** The status the post would start in: queued, scheduled, draft or pending_approval. */
  postStatus: PostStatus;
  /**
   * The items of a 422 VALIDATION_FAILED `errors[]`, preceded by `scheduledAt` /
   * `SCHEDULED_AT_IN_PAST` when a create would answer 400 for the time.
   */
  errors: RuleViolation[];
  policyViolation?: PolicyViolationReport;
}

/**
 * Validate a post: the check step of a create (check-new-post.ts) on the same body, reported rather
 * than refused. Every kind of problem is reported at once, where a create answers only the first
 * (400 time in the past, then 422 rules, then 403 policy). Nothing is written: no post, no
 * idempotency record, no event; and nothing is counted but the request itself.
 */
export function makeValidatePost(deps: { posts: PostStore; clock: Clock }) {
  const checkNewPost = makeCheckNewPost(deps);
  return async function validatePost(
    principal: Principal,
    workspaceId: string,
    input: CreatePostInput,
  ): Promise<PostValidation> {
    const { status, findings } = await checkNewPost(principal.tenant.tenantId, workspaceId, input);
    const errors = [...(findings.schedule ? [findings.schedule] : []), ...findings.violations];
    const policy = findings.policy;
    return {
      valid: errors.length === 0 && policy === undefined,
      postStatus: status,
      errors,
      ...(policy && {
        policyViolation: {
          facet: policy.facet,
          reason: policy.reason,
          // The very message the 403 would carry, from the one place it is worded.
          message: new PolicyViolationError(policy.facet, policy.reason).message,
        },
      }),
    };
  };
}
