import { EXTERNAL_ID_END, keys } from '../../../shared/adapters/dynamodb/keys.js';
import { ConflictError } from '../../../shared/domain/errors.js';
import type { IdempotencyRecord } from '../../../shared/domain/idempotency.js';
import type { Media } from '../../../shared/domain/media.js';
import type { Post } from '../../../shared/domain/posts.js';
import type { Account, Workspace } from '../../../shared/domain/tenancy.js';
import type { Page } from '../../../shared/ports/page.js';
import {
  IdempotencyRace,
  type PostContext,
  type PostListQuery,
  type PostStore,
} from '../../../shared/ports/post-store.js';
import { decodeListCursor, encodeListCursor } from './list-cursor.js';

/** Where loadContext reads workspaces, accounts and media: one table in DynamoDB, other stores here. */
export interface PostContextSources {
  tenancy?: {
    getWorkspace(tenantId: string, workspaceId: string): Promise<Workspace | undefined>;
    getAccount(tenantId: string, workspaceId: string, accountId: string): Promise<Account | undefined>;
  };
  media?: { get(tenantId: string, workspaceId: string, mediaId: string): Promise<Media | undefined> };
}

/** The DynamoDB adapter reads at most this many keys (workspace, account, media) in one BatchGet. */
const MAX_BATCH_GET = 100;

/** A concurrent create that has taken its idempotency key but is not yet visible to reads. */
export interface ConcurrentCreate {
  /** Makes the post and the record visible, as the winning transaction committing would. */
  commit(): void;
}

/**
 * A Map-backed PostStore for unit tests, honouring what callers rely on from the DynamoDB adapter:
 * - `create` writes the post and the idempotency record together or not at all, and throws
 *   IdempotencyRace when a live record for the key exists or another create holds the key;
 * - `update` replaces the post only at `expectedVersion`, ConflictError otherwise (also when absent);
 * - `list` orders as the indexes do (status=scheduled by scheduledAt ascending, every other listing
 *   newest first), pages with `limit` before the account/platform filters (so a page may hold fewer),
 *   takes either range bound alone, answers an inverted range with an empty page, and refuses a
 *   cursor that another listing issued (400 INVALID_REQUEST naming `cursor`);
 * - `listOverdue` finds due posts by the same due time as the due index (keys.postDue);
 * - every read and write copies, so a caller never shares an object with the store.
 */
export class InMemoryPostStore implements PostStore {
  private readonly posts = new Map<string, Post>();
  private readonly idempotency = new Map<string, IdempotencyRecord>();
  /** Keys held by a concurrent create that has not committed yet. */
  private readonly inFlight = new Set<string>();
  /** Another writer's change, run once just before the next `update` is checked. */
  private interloper: (() => Promise<void> | void) | undefined;

  constructor(private readonly sources: PostContextSources = {}) {}

  /** Puts a post as it is (any status, any version), for a test's starting state. */
  seed(post: Post): void {
    this.posts.set(postKey(post.tenantId, post.workspaceId, post.postId), structuredClone(post));
  }

  /** Every stored post, oldest id first. */
  all(): Post[] {
    return [...this.posts.values()]
      .sort((a, b) => a.postId.localeCompare(b.postId))
      .map((post) => structuredClone(post));
  }

  /** The stored idempotency record, live or not (what was written, for assertions). */
  storedIdempotencyRecord(tenantId: string, key: string): IdempotencyRecord | undefined {
    const record = this.idempotency.get(idempotencyKey(tenantId, key));
    return record && structuredClone(record);
  }

  /**
   * Another request's create that has claimed `record.key` and not yet committed: until `commit`,
   * a create with that key loses the race and reads do not see the winner's record.
   */
  beginConcurrentCreate(post: Post, record: IdempotencyRecord): ConcurrentCreate {
    const key = idempotencyKey(record.tenantId, record.key);
    this.inFlight.add(key);
    return {
      commit: () => {
        this.inFlight.delete(key);
        this.seed(post);
        this.idempotency.set(key, structuredClone(record));
      },
    };
  }

  /**
   * Runs `write` once, just before the next `update` checks its version: another request or worker
   * changing the post between the caller's read and its write.
   */
  beforeNextUpdate(write: () => Promise<void> | void): void {
    this.interloper = write;
  }

  async loadContext(
    tenantId: string,
    workspaceId: string,
    accountId: string,
    mediaIds: string[],
  ): Promise<PostContext> {
    this.reads.loadContext++;
    return this.contextOf(tenantId, workspaceId, accountId, mediaIds);
  }

  private async contextOf(
    tenantId: string,
    workspaceId: string,
    accountId: string,
    mediaIds: string[],
  ): Promise<PostContext> {
    const workspace = await this.sources.tenancy?.getWorkspace(tenantId, workspaceId);
    const account = await this.sources.tenancy?.getAccount(tenantId, workspaceId, accountId);
    const media = new Map<string, Media>();
    for (const mediaId of [...new Set(mediaIds)].slice(0, MAX_BATCH_GET - 2)) {
      const item = await this.sources.media?.get(tenantId, workspaceId, mediaId);
      if (item) media.set(item.mediaId, item);
    }
    return { ...(workspace && { workspace }), ...(account && { account }), media };
  }

  /** Counts of the reads the worker makes, for tests of its round trips (one call each in DynamoDB). */
  readonly reads = { get: 0, getForDelivery: 0, loadContext: 0 };

  async getForDelivery(
    tenantId: string,
    workspaceId: string,
    postId: string,
    accountId: string,
    mediaIds: string[],
  ): Promise<{ post?: Post; context: PostContext }> {
    this.reads.getForDelivery++;
    const post = this.posts.get(postKey(tenantId, workspaceId, postId));
    const { workspace: _notRead, ...context } = await this.contextOf(
      tenantId,
      workspaceId,
      accountId,
      mediaIds,
    );
    return { ...(post && { post: structuredClone(post) }), context };
  }

  async create(post: Post, idempotency?: IdempotencyRecord): Promise<void> {
    const key = postKey(post.tenantId, post.workspaceId, post.postId);
    if (this.posts.has(key)) {
      // The adapter's condition attribute_not_exists(pk); ids are ULIDs, so only a bug gets here.
      if (idempotency) throw new IdempotencyRace();
      throw new Error(`Post ${post.postId} already exists.`);
    }
    if (idempotency) {
      const recordKey = idempotencyKey(idempotency.tenantId, idempotency.key);
      const existing = this.idempotency.get(recordKey);
      // An expired record may be overwritten even before TTL has deleted it.
      const nowSeconds = Math.floor(Date.parse(idempotency.createdAt) / 1000);
      const live = existing !== undefined && existing.expiresAt >= nowSeconds;
      if (live || this.inFlight.has(recordKey)) throw new IdempotencyRace();
      this.idempotency.set(recordKey, structuredClone(idempotency));
    }
    this.posts.set(key, structuredClone(post));
  }

  async get(tenantId: string, workspaceId: string, postId: string): Promise<Post | undefined> {
    this.reads.get++;
    const post = this.posts.get(postKey(tenantId, workspaceId, postId));
    return post && structuredClone(post);
  }

  async list(tenantId: string, workspaceId: string, query: PostListQuery): Promise<Page<Post>> {
    const { limit, cursor, ...filters } = query;
    const scope = listScope(filters);
    const byExternalId = query.externalId !== undefined || query.externalIdPrefix !== undefined;
    const byScheduledIndex = query.status === 'scheduled' && !byExternalId;
    // The externalId index: sparse, ascending, an exact externalId being the prefix that ends with it.
    const externalPrefix =
      query.externalId !== undefined ? `${query.externalId}${EXTERNAL_ID_END}` : query.externalIdPrefix;
    const externalKey = (post: Post): string | undefined => {
      const entry = keys.postByExternalId(post);
      return 'gsi3sk' in entry ? entry.gsi3sk : undefined;
    };
    const ascending = byScheduledIndex || byExternalId;
    const sortKey = (post: Post) =>
      byExternalId
        ? (externalKey(post) ?? '')
        : query.status
          ? keys.postByStatus(post).gsi1sk
          : keys.post(tenantId, workspaceId, post.postId).sk;
    const start = cursor ? decodeListCursor(cursor, scope) : undefined;
    // DynamoDB would refuse an inverted range; the adapter answers it with an empty page.
    if (query.scheduledFrom && query.scheduledTo && query.scheduledFrom > query.scheduledTo) {
      return { items: [] };
    }

    const inKeyRange = (post: Post): boolean => {
      if (!byScheduledIndex) return true;
      // The index's key condition: sort keys are `<scheduledAt>#<postId>`; '~' sorts after any id.
      const position = sortKey(post);
      if (query.scheduledFrom && position < query.scheduledFrom) return false;
      if (query.scheduledTo && position > `${query.scheduledTo}~`) return false;
      return true;
    };
    const candidates = [...this.posts.values()]
      .filter((post) => post.tenantId === tenantId && post.workspaceId === workspaceId)
      .filter((post) => byExternalId || !query.status || post.status === query.status)
      .filter((post) => !byExternalId || (externalKey(post)?.startsWith(externalPrefix ?? '') ?? false))
      .filter(inKeyRange)
      .sort((a, b) => (ascending ? compare(sortKey(a), sortKey(b)) : compare(sortKey(b), sortKey(a))))
      .filter((post) => !start || (ascending ? sortKey(post) > start : sortKey(post) < start));

    const evaluated = candidates.slice(0, limit);
    const matches = (post: Post): boolean => {
      if (query.accountId && post.accountId !== query.accountId) return false;
      if (query.platform && post.platform !== query.platform) return false;
      if (byExternalId && query.status && post.status !== query.status) return false;
      if (byScheduledIndex) return true;
      // Outside the scheduled index the range is a filter: posts without scheduledAt drop out.
      if (query.scheduledFrom && !(post.scheduledAt && post.scheduledAt >= query.scheduledFrom)) return false;
      if (query.scheduledTo && !(post.scheduledAt && post.scheduledAt <= query.scheduledTo)) return false;
      return true;
    };
    const last = evaluated.at(-1);
    const nextCursor =
      last && candidates.length > evaluated.length ? encodeListCursor(scope, sortKey(last)) : undefined;
    return {
      items: evaluated.filter(matches).map((post) => structuredClone(post)),
      ...(nextCursor && { nextCursor }),
    };
  }

  async update(post: Post, expectedVersion: number): Promise<void> {
    const interloper = this.interloper;
    this.interloper = undefined;
    await interloper?.();
    const key = postKey(post.tenantId, post.workspaceId, post.postId);
    const current = this.posts.get(key);
    if (!current || current.version !== expectedVersion) {
      throw new ConflictError(
        'The post changed while this request was being handled. Read it again and retry.',
      );
    }
    this.posts.set(key, structuredClone(post));
  }

  async getIdempotencyRecord(
    tenantId: string,
    key: string,
    nowSeconds: number,
  ): Promise<IdempotencyRecord | undefined> {
    const record = this.idempotency.get(idempotencyKey(tenantId, key));
    if (!record || record.expiresAt < nowSeconds) return undefined;
    return structuredClone(record);
  }

  async listOverdue(
    status: 'scheduled' | 'queued' | 'publishing',
    before: string,
    limit: number,
  ): Promise<Post[]> {
    return [...this.posts.values()]
      .filter((post) => post.status === status)
      .flatMap((post) => {
        const due = keys.postDue(post);
        return 'gsi2sk' in due && due.gsi2sk < before ? [{ post, position: due.gsi2sk }] : [];
      })
      .sort((a, b) => compare(a.position, b.position))
      .slice(0, limit)
      .map(({ post }) => structuredClone(post));
  }
}

function postKey(tenantId: string, workspaceId: string, postId: string): string {
  return `${tenantId}/${workspaceId}/${postId}`;
}

function idempotencyKey(tenantId: string, key: string): string {
  return `${tenantId}#${key}`;
}

/** Byte order, as DynamoDB compares string sort keys (localeCompare would not). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function listScope(filters: Omit<PostListQuery, 'limit' | 'cursor'>): string {
  const entries = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => compare(a, b));
  return JSON.stringify(entries);
}
