import type { IdempotencyRecord } from '../domain/idempotency.js';
import type { Media } from '../domain/media.js';
import type { Platform } from '../domain/platforms.js';
import type { Post, PostStatus } from '../domain/posts.js';
import type { Account, Workspace } from '../domain/tenancy.js';
import type { Page, PageRequest } from './page.js';

export interface PostListQuery extends PageRequest {
  status?: PostStatus;
  accountId?: string;
  platform?: Platform;
  scheduledFrom?: string;
  scheduledTo?: string;
  /** Exactly this externalId; with externalIdPrefix, those starting so (by externalId, an index). */
  externalId?: string;
  externalIdPrefix?: string;
}

/** Everything a post needs checked against, read in one round trip. */
export interface PostContext {
  workspace?: Workspace;
  account?: Account;
  /** The referenced media that exist in the workspace, by id. */
  media: Map<string, Media>;
}

export class IdempotencyRace extends Error {
  constructor() {
    super('Another request with this Idempotency-Key was written first.');
    this.name = 'IdempotencyRace';
  }
}

export interface PostStore {
  loadContext(
    tenantId: string,
    workspaceId: string,
    accountId: string,
    mediaIds: string[],
  ): Promise<PostContext>;
  /**
   * Writes a new post, and the idempotency record with it in one transaction when given.
   * IdempotencyRace when a live record for that key already exists or is being written.
   */
  create(post: Post, idempotency?: IdempotencyRecord): Promise<void>;
  get(tenantId: string, workspaceId: string, postId: string): Promise<Post | undefined>;
  /**
   * The post with its account and the given stored media, in one round trip (the delivery
   * worker's read); the workspace is not read.
   */
  getForDelivery(
    tenantId: string,
    workspaceId: string,
    postId: string,
    accountId: string,
    mediaIds: string[],
  ): Promise<{ post?: Post; context: PostContext }>;
  list(tenantId: string, workspaceId: string, query: PostListQuery): Promise<Page<Post>>;
  /** Replaces the post if its version is still `expectedVersion`; ConflictError otherwise. */
  update(post: Post, expectedVersion: number): Promise<void>;
  /** A live (unexpired) idempotency record, read consistently. */
  getIdempotencyRecord(
    tenantId: string,
    key: string,
    nowSeconds: number,
  ): Promise<IdempotencyRecord | undefined>;
  /** Posts in `status` whose due time (scheduledAt, next attempt, lease end) is before `before`. */
  listOverdue(status: 'scheduled' | 'queued' | 'publishing', before: string, limit: number): Promise<Post[]>;
}
