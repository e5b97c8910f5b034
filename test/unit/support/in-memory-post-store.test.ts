import { describe, expect, it } from 'vitest';
import { ConflictError, InvalidRequestError } from '../../../shared/domain/errors.js';
import type { IdempotencyRecord } from '../../../shared/domain/idempotency.js';
import { IdempotencyRace } from '../../../shared/ports/post-store.js';
import { aPost } from '../delivery/support.js';
import { InMemoryPostStore } from './in-memory-post-store.js';
import { RecordingQueue } from './recording-queues.js';

const TENANT = 'ten_01JD0000000000000000000000';
const WORKSPACE = 'wks_01JD0000000000000000000000';

function aRecord(overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
  return {
    tenantId: TENANT,
    key: 'key-1',
    fingerprint: 'f',
    status: 201,
    body: {},
    createdAt: '2030-01-01T00:00:00.000Z',
    expiresAt: Date.parse('2030-01-02T00:00:00.000Z') / 1000,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('Expected a rejection.');
    },
    (error: unknown) => error,
  );
}

/** The in-memory store keeps the DynamoDB adapter's promises, or the use-case tests prove nothing. */
describe('InMemoryPostStore', () => {
  it('updates only at the expected version, and never a post that is not there', async () => {
    const store = new InMemoryPostStore();
    store.seed(aPost({ version: 3 }));

    await store.update(aPost({ version: 4, content: 'new' }), 3);
    const stale = await rejection(store.update(aPost({ version: 5, content: 'stale' }), 3));
    const missing = await rejection(store.update(aPost({ postId: 'pst_01JD0000000000000000000001' }), 1));

    expect(stale).toBeInstanceOf(ConflictError);
    expect(missing).toBeInstanceOf(ConflictError);
    expect((await store.get(TENANT, WORKSPACE, aPost().postId))?.content).toBe('new');
  });

  it('writes a post and its idempotency record together, or neither when the key is live', async () => {
    const store = new InMemoryPostStore();
    await store.create(aPost({ postId: 'pst_01JD0000000000000000000001' }), aRecord());

    const race = await rejection(
      store.create(aPost({ postId: 'pst_01JD0000000000000000000002' }), aRecord()),
    );

    expect(race).toBeInstanceOf(IdempotencyRace);
    expect(store.all().map((post) => post.postId)).toEqual(['pst_01JD0000000000000000000001']);
  });

  it('overwrites an expired record and hides it from reads', async () => {
    const store = new InMemoryPostStore();
    const expiresAt = Date.parse('2030-01-01T00:00:10.000Z') / 1000;
    await store.create(aPost({ postId: 'pst_01JD0000000000000000000001' }), aRecord({ expiresAt }));

    expect(await store.getIdempotencyRecord(TENANT, 'key-1', expiresAt + 1)).toBeUndefined();
    await store.create(
      aPost({ postId: 'pst_01JD0000000000000000000002' }),
      aRecord({ createdAt: '2030-01-01T00:01:00.000Z', fingerprint: 'g' }),
    );
    expect((await store.getIdempotencyRecord(TENANT, 'key-1', expiresAt + 1))?.fingerprint).toBe('g');
  });

  it('lets a concurrent create hold a key unseen until it commits', async () => {
    const store = new InMemoryPostStore();
    const winner = store.beginConcurrentCreate(
      aPost({ postId: 'pst_01JD0000000000000000000001' }),
      aRecord(),
    );

    const race = await rejection(
      store.create(aPost({ postId: 'pst_01JD0000000000000000000002' }), aRecord()),
    );
    expect(race).toBeInstanceOf(IdempotencyRace);
    expect(await store.getIdempotencyRecord(TENANT, 'key-1', 0)).toBeUndefined();

    winner.commit();
    expect(await store.getIdempotencyRecord(TENANT, 'key-1', 0)).toMatchObject({ fingerprint: 'f' });
    expect(store.all()).toHaveLength(1);
  });

  it('lists scheduled posts by time within either bound alone, and pages through them', async () => {
    const store = new InMemoryPostStore();
    for (const [index, at] of ['2030-01-03', '2030-01-01', '2030-01-02'].entries()) {
      store.seed(
        aPost({
          postId: `pst_01JD000000000000000000000${index}`,
          status: 'scheduled',
          scheduledAt: `${at}T10:00:00.000Z`,
        }),
      );
    }
    store.seed(aPost({ postId: 'pst_01JD0000000000000000000009', status: 'draft' }));

    const upTo = await store.list(TENANT, WORKSPACE, {
      status: 'scheduled',
      scheduledTo: '2030-01-02T10:00:00.000Z',
      limit: 1,
    });
    const rest = await store.list(TENANT, WORKSPACE, {
      status: 'scheduled',
      scheduledTo: '2030-01-02T10:00:00.000Z',
      limit: 1,
      ...(upTo.nextCursor && { cursor: upTo.nextCursor }),
    });

    expect(upTo.items.map((post) => post.scheduledAt)).toEqual(['2030-01-01T10:00:00.000Z']);
    expect(rest.items.map((post) => post.scheduledAt)).toEqual(['2030-01-02T10:00:00.000Z']);
    expect(rest.nextCursor).toBeUndefined();
  });

  it('lists everything newest first, and an inverted range as nothing', async () => {
    const store = new InMemoryPostStore();
    store.seed(aPost({ postId: 'pst_01JD0000000000000000000001' }));
    store.seed(aPost({ postId: 'pst_01JD0000000000000000000002' }));

    const all = await store.list(TENANT, WORKSPACE, { limit: 10 });
    const inverted = await store.list(TENANT, WORKSPACE, {
      status: 'scheduled',
      scheduledFrom: '2030-02-01T00:00:00.000Z',
      scheduledTo: '2030-01-01T00:00:00.000Z',
      limit: 10,
    });

    expect(all.items.map((post) => post.postId)).toEqual([
      'pst_01JD0000000000000000000002',
      'pst_01JD0000000000000000000001',
    ]);
    expect(inverted).toEqual({ items: [] });
  });

  it('refuses a cursor from another listing and a forged one with 400 naming cursor', async () => {
    const store = new InMemoryPostStore();
    store.seed(aPost({ postId: 'pst_01JD0000000000000000000001', status: 'published' }));
    store.seed(aPost({ postId: 'pst_01JD0000000000000000000002', status: 'published' }));
    const published = await store.list(TENANT, WORKSPACE, { status: 'published', limit: 1 });

    const reused = await rejection(
      store.list(TENANT, WORKSPACE, {
        status: 'scheduled',
        scheduledTo: '2030-01-01T00:00:00.000Z',
        limit: 1,
        ...(published.nextCursor && { cursor: published.nextCursor }),
      }),
    );
    const forged = await rejection(store.list(TENANT, WORKSPACE, { limit: 1, cursor: 'not-a-cursor' }));

    for (const error of [reused, forged]) {
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).details).toHaveProperty('cursor');
    }
  });

  it('finds overdue posts by the due index time, earliest first', async () => {
    const store = new InMemoryPostStore();
    store.seed(
      aPost({
        postId: 'pst_01JD0000000000000000000001',
        status: 'scheduled',
        scheduledAt: '2030-01-01T10:05:00.000Z',
      }),
    );
    store.seed(
      aPost({
        postId: 'pst_01JD0000000000000000000002',
        status: 'scheduled',
        scheduledAt: '2030-01-01T10:00:00.000Z',
      }),
    );
    store.seed(
      aPost({
        postId: 'pst_01JD0000000000000000000003',
        status: 'scheduled',
        scheduledAt: '2030-01-01T11:00:00.000Z',
      }),
    );

    const overdue = await store.listOverdue('scheduled', '2030-01-01T10:30:00.000Z', 10);

    expect(overdue.map((post) => post.postId)).toEqual([
      'pst_01JD0000000000000000000002',
      'pst_01JD0000000000000000000001',
    ]);
  });
});

describe('RecordingQueue', () => {
  it('keeps messages in order with their delay rounded up, and refuses a delay SQS would', async () => {
    const queue = new RecordingQueue<{ id: number }>();
    await queue.send({ id: 1 });
    await queue.send({ id: 2 }, { delaySeconds: 1.2 });

    expect(queue.sent).toEqual([{ message: { id: 1 } }, { message: { id: 2 }, delaySeconds: 2 }]);
    expect(await rejection(queue.send({ id: 3 }, { delaySeconds: 901 }))).toBeInstanceOf(RangeError);
  });
});
