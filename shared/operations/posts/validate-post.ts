import * as z from 'zod';
import { POLICY_FACET_ORDER } from '../../domain/policy-check.js';
import { POST_STATUSES } from '../../domain/posts.js';
import { defineOperation } from '../../http/operation.js';
import { makeValidatePost } from '../../services/posts/validate-post.js';
import { noQuery, workspacePathParams } from '../common-schemas.js';
import { createPostBody } from './post-schemas.js';

const ruleViolation = z
  .object({
    field: z.string().describe('Field path: scheduledAt, content, content[1].text, media[0].id, accountId…'),
    code: z.string().describe('SCHEDULED_AT_IN_PAST, TEXT_TOO_LONG, MEDIA_NOT_FOUND, ACCOUNT_DISCONNECTED…'),
    message: z.string(),
    limit: z.number().optional().describe('The limit broken, where one applies.'),
  })
  .meta({ id: 'RuleViolation' });

export const postValidation = z
  .object({
    valid: z.boolean().describe('True when a create with this body would be accepted now.'),
    postStatus: z
      .enum(POST_STATUSES)
      .describe(
        'The status the post would start in: queued, scheduled, draft, or pending_approval when the workspace requires approval.',
      ),
    errors: z
      .array(ruleViolation)
      .describe(
        "The items a create would answer in 422 VALIDATION_FAILED's errors[]; first scheduledAt / SCHEDULED_AT_IN_PAST where a create would answer 400 for the time.",
      ),
    policyViolation: z
      .object({
        facet: z.enum(POLICY_FACET_ORDER),
        reason: z.string(),
        message: z.string(),
      })
      .optional()
      .describe('What a create would answer with 403 policy_violation: the first workspace policy broken.'),
  })
  .meta({ id: 'PostValidation' });

export const validatePost = defineOperation({
  id: 'validatePost',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/posts/validate',
  summary: 'Check a post without creating it',
  description:
    'Takes the body of a create and runs the checks a create would run now (scheduledAt in the future, the account and media, the platform rules, the workspace policies), writing nothing: no post, no idempotency record, no event. Answers 200 with valid, every problem at once in errors[] (the items of a 422 VALIDATION_FAILED, with scheduledAt in the past as SCHEDULED_AT_IN_PAST), the policy a create would refuse with 403 policy_violation, and the status the post would start in. A draft is valid whatever it holds but its account (on the platform of the post), as a create keeps it; send status publish or scheduled to check it before submitting it. An accountId that is not an account of the workspace is 404 not_found naming it, and a body that fails the schema is 400 INVALID_REQUEST, as on create; an Idempotency-Key is neither needed nor read. Counts in the "other" rate-limit family, not in post creation.',
  toolDescription:
    "Runs createPost's checks on its body now, writing nothing: scheduledAt ahead, account and media, platform rules, workspace policies. Answers valid, every problem in errors[] (VALIDATION_FAILED's items; a past scheduledAt is SCHEDULED_AT_IN_PAST), the policy_violation createPost would answer, and the status the post would start in. A draft checks only its account (on the post's platform): send status publish or scheduled to check the rest. An accountId not of the workspace: not_found (404). No idempotencyKey; counts in the \"other\" rate-limit family.",
  tag: 'Posts',
  auth: 'apiKey',
  // The grant a create needs: checking is part of posting, and a caller without it learns nothing
  // (accounts, media ids) a create would not tell it either.
  permission: 'posts:write',
  rateLimitFamily: 'other',
  workspace: 'path',
  // not_found: the workspace, or an accountId that is none of its accounts (drafts included).
  errors: ['not_found'],
  successStatus: 200,
  successDescription:
    'The verdict, nothing created: whether the post is valid, every rule it breaks, the policy a create would refuse it with, and the status it would start in.',
  // A POST that writes nothing: MCP clients may call the tool freely (readOnlyHint).
  effects: { readOnly: true },
  schemas: {
    params: workspacePathParams,
    query: noQuery,
    body: createPostBody,
    response: postValidation,
  },
  async handler({ deps, principal, workspaceId }, { body }) {
    return makeValidatePost(deps)(principal, workspaceId, body);
  },
});
