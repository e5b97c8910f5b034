import { afterEach, describe, expect, it } from 'vitest';
import type { FakeThreadsEndpoint } from '../../../../infra/fake-networks/threads/index.js';
import { graphError } from '../../../../infra/fake-networks/threads/index.js';
import { aRequest, startWorld, storedMedia, type ThreadsWorld, userToken } from './threads-world.js';

type Reply = ReturnType<typeof graphError>;

describe('Threads errors mapped into our codes (the raw body never passes on)', () => {
  let world: ThreadsWorld;
  afterEach(() => world.stop());

  const cases: {
    name: string;
    endpoint: FakeThreadsEndpoint;
    reply: Reply;
    expected: Record<string, unknown>;
  }[] = [
    {
      name: 'an expired token (190)',
      endpoint: 'threads.create',
      reply: graphError(190, 'Error validating access token: Session has expired.', { subcode: 463 }),
      expected: { failure: 'auth_rejected', code: 'TOKEN_REJECTED', platformRawCode: '190/463' },
    },
    {
      name: 'a missing permission (10)',
      endpoint: 'threads.create',
      reply: graphError(10, 'Application does not have permission for this action'),
      expected: { failure: 'permanent', code: 'PLATFORM_PERMISSION_DENIED', platformRawCode: '10' },
    },
    {
      name: 'the daily publishing limit at threads_publish',
      endpoint: 'threads_publish',
      reply: graphError(9, 'The profile reached its limit of 250 posts in 24 hours.', { subcode: 2207042 }),
      expected: { failure: 'rate_limited', code: 'PUBLISH_LIMIT_REACHED', retryAfterSeconds: 3600 },
    },
    {
      name: 'a throttle (4)',
      endpoint: 'threads.create',
      reply: graphError(4, 'Application request limit reached'),
      expected: { failure: 'rate_limited', code: 'RATE_LIMITED', retryAfterSeconds: 900 },
    },
    {
      name: '"Media Not Found" on a just-made container (24/4279009)',
      endpoint: 'threads_publish',
      reply: graphError(24, 'Media Not Found', { subcode: 4279009 }),
      expected: {
        failure: 'transient',
        code: 'CONTAINER_NOT_READY',
        retryAfterSeconds: 30,
        platformRawCode: '24/4279009',
      },
    },
    {
      name: 'spam-like activity (2207051)',
      endpoint: 'threads_publish',
      reply: graphError(1, 'We restrict certain activity to protect our community.', { subcode: 2207051 }),
      expected: { failure: 'permanent', code: 'PLATFORM_REJECTED_SPAM' },
    },
    {
      name: 'a restricted account (4279013)',
      endpoint: 'threads.create',
      reply: graphError(100, 'The user is restricted.', { subcode: 4279013 }),
      expected: { failure: 'permanent', code: 'ACCOUNT_RESTRICTED' },
    },
    {
      name: 'too many links (THREADS_API__LINK_LIMIT_EXCEEDED)',
      endpoint: 'threads.create',
      reply: graphError(100, 'THREADS_API__LINK_LIMIT_EXCEEDED'),
      expected: { failure: 'permanent', code: 'TOO_MANY_LINKS', platformRawCode: '100' },
    },
    {
      name: 'a server error (5xx)',
      endpoint: 'threads.create',
      reply: graphError(2, 'Service temporarily unavailable', { status: 503, transient: true }),
      expected: { failure: 'transient', code: 'PLATFORM_ERROR' },
    },
    {
      name: 'any other refusal',
      endpoint: 'threads.create',
      reply: graphError(100, 'Invalid parameter'),
      expected: { failure: 'permanent', code: 'PLATFORM_REJECTED', platformRawCode: '100' },
    },
  ];

  for (const { name, endpoint, reply, expected } of cases) {
    it(`${name}: ${String(expected.code)}`, async () => {
      world = await startWorld();
      world.fake.control.failNext(endpoint, { kind: 'reply', reply });
      const outcome = await world.network.connector.publish(
        aRequest(world, userToken(world), { postType: 'text', content: 'Hi' }),
      );
      expect(outcome).toMatchObject({ kind: 'failed', ...expected });
      if (outcome.kind === 'failed')
        expect(outcome.message).not.toContain((reply.json as { error: { message: string } }).error.message);
      expect(world.fake.control.posts()).toEqual([]);
    });
  }

  it('an over-long text refused by Threads is TEXT_TOO_LONG (129 graphemes, 501 by Threads’ count: each emoji is its 4 bytes)', async () => {
    world = await startWorld();
    // 124 emoji of 4 bytes = 496, plus 5 letters: 501 by Threads' count, 129 graphemes.
    const text = `${'😀'.repeat(124)}abcde`;
    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), { postType: 'text', content: text }),
    );
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'TEXT_TOO_LONG' });
  });

  it('a video whose processing fails (ERROR with error_message, HTTP 200) fails the post MEDIA_PROCESSING_FAILED; UNKNOWN may be retried', async () => {
    world = await startWorld({ processingPolls: { VIDEO: 0 } });
    world.fake.control.failProcessing('INVALID_DURATION');
    const token = userToken(world);
    const outcome = await world.network.connector.publish(
      aRequest(world, token, { postType: 'video', content: 'Clip' }, [storedMedia(world, 'video')]),
    );
    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_PROCESSING_FAILED',
      platformRawCode: 'ERROR/INVALID_DURATION',
    });

    world.fake.control.failProcessing('UNKNOWN');
    const unknown = await world.network.connector.publish(
      aRequest(world, token, { postId: 'pst_th_2', postType: 'video', content: 'Clip' }, [
        storedMedia(world, 'video'),
      ]),
    );
    expect(unknown).toMatchObject({ kind: 'failed', failure: 'transient', platformRawCode: 'ERROR/UNKNOWN' });
  });

  it('an image Threads cannot fetch is MEDIA_FETCH_FAILED (retried); a GIF is refused before any container is made', async () => {
    world = await startWorld();
    const token = userToken(world);
    const image = storedMedia(world, 'image');
    world.urls.objects.delete(image.delivered.stored?.objectKey ?? '');
    const outcome = await world.network.connector.publish(
      aRequest(world, token, { postType: 'image', content: 'x' }, [image]),
    );
    expect(outcome).toMatchObject({
      kind: 'failed',
      failure: 'transient',
      code: 'MEDIA_FETCH_FAILED',
      platformRawCode: '1/2207052',
    });

    const gif = storedMedia(world, 'image', { mimeType: 'image/gif' });
    const refused = await world.network.connector.publish(
      aRequest(world, token, { postType: 'image', content: 'x' }, [gif]),
    );
    expect(refused).toMatchObject({ kind: 'failed', failure: 'permanent', code: 'MEDIA_TYPE_UNSUPPORTED' });
    expect(world.fake.control.containers()).toEqual([]);
  });

  it('the account past its 250 posts: rate_limited before any container is made, until the oldest leaves the window', async () => {
    world = await startWorld({ quotaTotal: 3 });
    const now = Date.now();
    world.fake.control.addPublished('26000000000000001', [now - 20 * 3600_000, now - 3600_000, now - 60_000]);
    const outcome = await world.network.connector.publish(
      aRequest(world, userToken(world), { postType: 'text', content: 'One more' }),
    );
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'rate_limited', code: 'PUBLISH_LIMIT_REACHED' });
    const wait = outcome.kind === 'failed' ? (outcome.retryAfterSeconds ?? 0) : 0;
    expect(wait).toBeGreaterThan(3.9 * 3600);
    expect(wait).toBeLessThanOrEqual(4 * 3600 + 1);
    expect(world.fake.control.containers()).toEqual([]);
  });

  it('a missing or unreadable token, or unreadable options, fail without a call', async () => {
    world = await startWorld();
    const request = aRequest(world, 'x', { postType: 'text', content: 'Hi' });
    const { credentials: _, ...withoutToken } = request;
    expect(await world.network.connector.publish(withoutToken)).toMatchObject({
      kind: 'failed',
      code: 'TOKEN_MISSING',
    });
    const badOptions = aRequest(world, 'x', {
      postType: 'text',
      content: 'Hi',
      platformOptions: { threads: { replyControl: 'nobody' } } as never,
    });
    expect(await world.network.connector.publish(badOptions)).toMatchObject({
      kind: 'failed',
      code: 'PLATFORM_OPTIONS_INVALID',
    });
    expect(world.fake.control.requests()).toEqual([]);
  });
});
