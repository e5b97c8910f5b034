import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishOutcome } from '../../../../shared/ports/connector.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import { anAccount, aPost, type BlueskyWorld, connect, publishRequest, startWorld } from './bluesky-world.js';

const LATE = { kind: 'delayAfter' as const, ms: 1500 };

/**
 * A time-out after Bluesky accepted the post: the outcome is unknown, the look-up (getRecord by
 * the record key we chose) finds it, and the post is never made twice, whichever way the retry goes.
 */
describe('Bluesky: an outcome without an answer', () => {
  let world: BlueskyWorld;
  let tokens: TokenSet;
  beforeAll(async () => {
    world = await startWorld();
    tokens = await connect(world);
    // The session's first PDS call learns the PDS's DPoP nonce (one use_dpop_nonce refusal): made
    // here, so that a failure queued for createRecord below meets the post, not that refusal.
    await world.network.connector.publish(publishRequest(world, aPost('Warm-up'), tokens));
  });
  afterAll(async () => {
    await world?.stop();
  });

  const publish = (post: ReturnType<typeof aPost>, extra: Parameters<typeof publishRequest>[3] = {}) =>
    world.network.connector.publish(publishRequest(world, post, tokens, extra));
  const lookUp = (
    post: ReturnType<typeof aPost>,
    progress?: Extract<PublishOutcome, { kind: 'unknown' }>['progress'],
  ) =>
    world.network.connector.findPublished?.({
      account: anAccount(),
      credentials: { accessToken: tokens.accessToken },
      post,
      clientReference: post.postId,
      ...(progress && { progress }),
      signal: AbortSignal.timeout(5000),
    });
  const postsWith = (text: string) =>
    world.fake.control.posts().filter((record) => record.value.text === text);

  it('answers unknown on a time-out, and the look-up finds the one post', async () => {
    const post = aPost('Timed out once');
    world.fake.control.inject('createRecord', LATE);
    const outcome = await publish(post, { signal: AbortSignal.timeout(300) });
    expect(outcome).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    if (outcome.kind !== 'unknown') return;
    // The record key was chosen, and kept in the progress, before createRecord was sent.
    expect(outcome.progress?.sending).toMatch(/^[234567a-j][234567a-z]{12}$/);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const found = await lookUp(post, outcome.progress);
    const [record] = postsWith('Timed out once');
    expect(found).toEqual({
      kind: 'found',
      platformPostId: record?.uri,
      platformPostUrl: expect.stringContaining(String(record?.rkey)),
    });
    expect(record?.rkey).toBe(outcome.progress?.sending);
    expect(postsWith('Timed out once')).toHaveLength(1);
  });

  it('a retry after a worker that died (no progress kept) finds the post under the same key: one post, not two', async () => {
    const post = aPost('Worker died');
    world.fake.control.inject('createRecord', LATE);
    await publish(post, { signal: AbortSignal.timeout(300) });
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const retried = await publish(post, { attempt: 2 });
    expect(retried).toMatchObject({ kind: 'published', platformPostId: postsWith('Worker died')[0]?.uri });
    expect(postsWith('Worker died')).toHaveLength(1);
  });

  it('a blind resend with the same key gets the PDS 500 (duplicate key), is looked up, and adopts the post', async () => {
    const post = aPost('Sent twice');
    world.fake.control.inject('createRecord', LATE);
    await publish(post, { signal: AbortSignal.timeout(300) });
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const before = world.fake.control.seen().length;
    const again = await publish(post);
    expect(again.kind).toBe('published');
    const calls = world.fake.control
      .seen()
      .slice(before)
      .map((call) => call.endpoint);
    expect(calls.filter((endpoint) => endpoint === 'createRecord' || endpoint === 'getRecord')).toEqual([
      'createRecord',
      'getRecord',
    ]);
    expect(postsWith('Sent twice')).toHaveLength(1);
  });

  it('a thread whose second item lost its answer: not_found, and the retry posts only the rest', async () => {
    const post = aPost([{ text: 'T one' }, { text: 'T two' }, { text: 'T three' }]);
    world.fake.control.inject('createRecord', { kind: 'pass' });
    world.fake.control.inject('createRecord', LATE);
    const outcome = await publish(post, { signal: AbortSignal.timeout(400) });
    expect(outcome.kind).toBe('unknown');
    if (outcome.kind !== 'unknown') return;
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(await lookUp(post, outcome.progress)).toEqual({ kind: 'not_found' });
    const retried = await publish(post, { attempt: 2, progress: outcome.progress ?? {} });
    expect(retried.kind).toBe('published');
    for (const text of ['T one', 'T two', 'T three']) expect(postsWith(text)).toHaveLength(1);
    const [, two, three] = world.fake.control.posts().slice(-3);
    expect(three?.value.reply).toMatchObject({ parent: { uri: two?.uri } });
  });

  it('a look-up that gets no answer is unknown, never not_found', async () => {
    const post = aPost('Unsure');
    world.fake.control.inject('getRecord', { kind: 'reset' });
    expect(await lookUp(post)).toMatchObject({ kind: 'unknown' });
    world.fake.control.inject('getRecord', {
      kind: 'reply',
      reply: { status: 502, json: { error: 'UpstreamFailure' } },
    });
    expect(await lookUp(post)).toMatchObject({ kind: 'unknown' });
    expect(await lookUp(post)).toEqual({ kind: 'not_found' });
  });
});
