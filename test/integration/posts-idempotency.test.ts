import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/ports/clock.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

describe('Idempotency-Key on post creation', () => {
  const clock = fixedClock(Date.now());
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;

  const allPostIds = async () => {
    const page = await host.deps.posts.list(tenant.tenantId, tenant.workspaceId, { limit: 100 });
    return page.items.map((post) => post.postId);
  };

  beforeAll(async () => {
    host = await startTestHost({ clock });
    tenant = await host.admin.bootstrap({ name: 'Idempotent' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
  });

  it('replays the first answer with Idempotent-Replayed and creates nothing more', async () => {
    const before = (await allPostIds()).length;
    const first = await posts.create(tweet(tenant, { content: 'once' }), { 'Idempotency-Key': 'order-1' });
    const again = await posts.create(tweet(tenant, { content: 'once' }), { 'Idempotency-Key': 'order-1' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect((await allPostIds()).length).toBe(before + 1);
  });

  it('treats the same body with keys in another order as the same request', async () => {
    const body = tweet(tenant, { content: 'order' });
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const first = await posts.create(body, { 'Idempotency-Key': 'order-2' });
    const again = await posts.create(reordered, { 'Idempotency-Key': 'order-2' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { id: string }).id).toBe(((await first.json()) as { id: string }).id);
  });

  it('answers 422 idempotency_key_reused to the same key with another body', async () => {
    await posts.create(tweet(tenant, { content: 'first' }), { 'Idempotency-Key': 'order-3' });
    const response = await posts.create(tweet(tenant, { content: 'second' }), {
      'Idempotency-Key': 'order-3',
    });
    await expectEnvelope(response, 422, 'idempotency_key_reused');
  });

  it('scopes keys to the tenant: another tenant may use the same key', async () => {
    const other = await host.admin.bootstrap({ name: 'Other tenant' });
    const mine = await posts.create(tweet(tenant, { content: 'shared key' }), {
      'Idempotency-Key': 'order-4',
    });
    const theirs = await postsClient(host, other).create(tweet(other, { content: 'shared key' }), {
      'Idempotency-Key': 'order-4',
    });
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(((await theirs.json()) as { id: string }).id).not.toBe(((await mine.json()) as { id: string }).id);
  });

  it('different keys with identical content create two posts', async () => {
    const a = await posts.create(tweet(tenant, { content: 'twin' }), { 'Idempotency-Key': 'twin-a' });
    const b = await posts.create(tweet(tenant, { content: 'twin' }), { 'Idempotency-Key': 'twin-b' });
    expect(((await a.json()) as { id: string }).id).not.toBe(((await b.json()) as { id: string }).id);
  });

  it('does not record a request that failed validation', async () => {
    await expectEnvelope(
      await posts.create(tweet(tenant, { content: 'x'.repeat(400) }), { 'Idempotency-Key': 'order-5' }),
      422,
      'VALIDATION_FAILED',
    );
    const fixed = await posts.create(tweet(tenant, { content: 'fixed' }), { 'Idempotency-Key': 'order-5' });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('50 concurrent creates with one key make exactly one post, and all 50 answers carry its id', async () => {
    const before = new Set(await allPostIds());
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        posts.create(tweet(tenant, { content: 'stampede' }), { 'Idempotency-Key': 'stampede-1' }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    const ids = new Set(
      await Promise.all(responses.map(async (r) => ((await r.json()) as { id: string }).id)),
    );
    expect(ids.size).toBe(1);
    const created = (await allPostIds()).filter((id) => !before.has(id));
    expect(created).toEqual([...ids]);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(49);
  });

  it('forgets a key after 24 hours, even before TTL deletes the record', async () => {
    const first = await posts.create(tweet(tenant, { content: 'daily' }), { 'Idempotency-Key': 'daily-1' });
    clock.advance(24 * 3600 * 1000 - 1000);
    const stillRemembered = await posts.create(tweet(tenant, { content: 'daily' }), {
      'Idempotency-Key': 'daily-1',
    });
    expect(stillRemembered.headers.get('idempotent-replayed')).toBe('true');
    clock.advance(2000);
    const afterExpiry = await posts.create(tweet(tenant, { content: 'daily' }), {
      'Idempotency-Key': 'daily-1',
    });
    expect(afterExpiry.status).toBe(201);
    expect(afterExpiry.headers.get('idempotent-replayed')).toBeNull();
    expect(((await afterExpiry.json()) as { id: string }).id).not.toBe(
      ((await first.json()) as { id: string }).id,
    );
  });
});
