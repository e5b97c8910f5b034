import { ConflictError, IdempotencyKeyReusedError } from '../../domain/errors.js';
import { waitingComment } from '../../domain/first-comment.js';
import {
  IDEMPOTENCY_TTL_SECONDS,
  type IdempotencyRecord,
  requestFingerprint,
} from '../../domain/idempotency.js';
import { newId } from '../../domain/ids.js';
import type { Platform } from '../../domain/platforms.js';
import type { Post, PostType } from '../../domain/posts.js';
import type { Principal } from '../../domain/tenancy.js';
import type { Clock } from '../../ports/clock.js';
import { type Metrics, noMetrics } from '../../ports/metrics.js';
import { IdempotencyRace, type PostStore } from '../../ports/post-store.js';
import { type CreatePostInput, makeCheckNewPost } from './check-new-post.js';
import { assertNoFindings } from './post-checks.js';

export type { CreatePostInput } from './check-new-post.js';

export interface CreatedPost {
  status: number;
  body: { id: string; status: Post['status']; platform: Platform; postType: PostType; createdAt: string };
  replayed: boolean;
}

/** How often a request that lost an idempotency race looks for the winner's record before giving up. */
const RACE_READS = 20;
const RACE_PAUSE_MS = 50;

/** `metrics` counts PostsCreated (by platform); none when a caller (a unit test) leaves it out. */
export function makeCreatePost(deps: { posts: PostStore; clock: Clock; metrics?: Metrics }) {
  const metrics = deps.metrics ?? noMetrics;
  const checkNewPost = makeCheckNewPost(deps);
  const counted = (created: CreatedPost): CreatedPost => {
    metrics.count('PostsCreated', { platform: created.body.platform });
    return created;
  };
  const replay = (record: IdempotencyRecord, fingerprint: string): CreatedPost => {
    if (record.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
    return { status: record.status, body: record.body as CreatedPost['body'], replayed: true };
  };

  /** The winner's record, once it is visible (a concurrent transaction may still be committing). */
  const awaitWinner = async (
    tenantId: string,
    key: string,
    fingerprint: string,
  ): Promise<CreatedPost | undefined> => {
    for (let attempt = 0; attempt < RACE_READS; attempt++) {
      const record = await deps.posts.getIdempotencyRecord(
        tenantId,
        key,
        Math.floor(deps.clock.now() / 1000),
      );
      if (record) return replay(record, fingerprint);
      await new Promise((resolve) => setTimeout(resolve, RACE_PAUSE_MS));
    }
    return undefined;
  };

  /**
   * Create a post:
   * 1. a live record for the Idempotency-Key replays the first answer (or 422 for another body);
   * 2. the check step validatePost runs too (check-new-post.ts): unless it is a draft, scheduledAt
   *    ahead (400), platform rules (422), policies (403), refused at the first of these;
   * 3. write the post, with the idempotency record in the same transaction;
   * 4. a lost race for the key replays the winner's answer.
   */
  return async function createPost(
    principal: Principal,
    workspaceId: string,
    input: CreatePostInput,
    idempotencyKey?: string,
  ): Promise<CreatedPost> {
    const tenantId = principal.tenant.tenantId;
    const fingerprint = requestFingerprint(`POST /v1/workspaces/${workspaceId}/posts`, input);
    const nowSeconds = Math.floor(deps.clock.now() / 1000);
    if (idempotencyKey) {
      const record = await deps.posts.getIdempotencyRecord(tenantId, idempotencyKey, nowSeconds);
      if (record) return replay(record, fingerprint);
    }

    const { draft, status, findings } = await checkNewPost(tenantId, workspaceId, input);
    assertNoFindings(findings);

    const now = new Date(deps.clock.now()).toISOString();
    const { firstComment, ...shape } = draft;
    const post: Post = {
      postId: newId('post', deps.clock.now()),
      tenantId,
      workspaceId,
      accountId: input.accountId,
      ...shape,
      ...(firstComment && { firstComment: waitingComment(firstComment) }),
      ...(input.externalId && { externalId: input.externalId }),
      status,
      createdAt: now,
      updatedAt: now,
      attempts: 0,
      createdBy: principal.agent.agentId,
      version: 1,
      ...(status === 'pending_approval' && { approval: { status: 'pending' as const, requestedAt: now } }),
    };
    const created: CreatedPost = {
      status: 201,
      body: {
        id: post.postId,
        status: post.status,
        platform: post.platform,
        postType: post.postType,
        createdAt: now,
      },
      replayed: false,
    };
    if (!idempotencyKey) {
      await deps.posts.create(post);
      return counted(created);
    }
    const record: IdempotencyRecord = {
      tenantId,
      key: idempotencyKey,
      fingerprint,
      status: created.status,
      body: created.body,
      createdAt: now,
      expiresAt: nowSeconds + IDEMPOTENCY_TTL_SECONDS,
    };
    try {
      await deps.posts.create(post, record);
      return counted(created);
    } catch (error) {
      if (!(error instanceof IdempotencyRace)) throw error;
      const winner = await awaitWinner(tenantId, idempotencyKey, fingerprint);
      if (winner) return winner;
      // The other request holds the key but has not finished: its answer is not ours to invent.
      throw new ConflictError(
        'Another request with this Idempotency-Key is still being processed. Retry shortly to get its answer.',
      );
    }
  };
}
