import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/ports/clock.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

interface PostBody {
  status: string;
  attempts: number;
  error: { origin: string; code: string; platformRawCode?: string; retryable: boolean } | null;
}

/**
 * A network rate limit lasts minutes; this host runs on a clock the test moves forward, and the
 * in-process queue releases delayed messages by that clock, so minutes pass in a moment.
 */
describe('a rate-limited network, on a clock the test advances', () => {
  const clock = fixedClock(Date.now());
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;

  beforeAll(async () => {
    host = await startTestHost({ clock, delivery: { sandboxLatencyMs: { min: 0, max: 0 } } });
    tenant = await host.admin.bootstrap({ name: 'Throttled' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
  });

  const read = async (id: string) => (await (await posts.get(id)).json()) as PostBody;

  /** Waits for each attempt to finish, then moves the clock past the retry wait, until the post settles. */
  const driveUntilSettled = async (id: string, maxSteps: number) => {
    for (let step = 0; step < maxSteps; step++) {
      const post = await eventually(
        async () => {
          const current = await read(id);
          return current.status === 'queued' && current.attempts > step
            ? current
            : ['published', 'failed'].includes(current.status)
              ? current
              : undefined;
        },
        { what: `attempt ${step + 1}` },
      );
      if (post.status !== 'queued') return post;
      expect(post.error).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
      clock.advance(75_000);
    }
    throw new Error(`not settled after ${maxSteps} attempts`);
  };

  it('retries a post rate-limited for 3 minutes, then publishes it', async () => {
    const response = await posts.create(tweet(tenant, { content: 'Busy day [sandbox:rate_limited:3]' }));
    const { id } = (await response.json()) as { id: string };
    const post = await driveUntilSettled(id, 10);
    expect(post.status).toBe('published');
    expect(post.attempts).toBeGreaterThanOrEqual(3);
    expect(post.error).toBeNull();
  });

  it('fails a post still rate-limited after about 15 minutes: origin platform, RATE_LIMITED, retryable', async () => {
    const response = await posts.create(tweet(tenant, { content: 'Very busy [sandbox:rate_limited:30]' }));
    const { id } = (await response.json()) as { id: string };
    const post = await driveUntilSettled(id, 30);
    expect(post.status).toBe('failed');
    expect(post.error).toEqual({
      origin: 'platform',
      code: 'RATE_LIMITED',
      message: expect.any(String),
      platformRawCode: '429',
      retryable: true,
    });
    // About 15 minutes of retries at about a minute each.
    expect(post.attempts).toBeGreaterThanOrEqual(12);
    expect(post.attempts).toBeLessThanOrEqual(16);
  });
});
