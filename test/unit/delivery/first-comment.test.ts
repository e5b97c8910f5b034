import { describe, expect, it } from 'vitest';
import { deliveryEffects } from '../../../shared/domain/delivery-effects.js';
import { postEvents } from '../../../shared/domain/events.js';
import { COMMENT_LEASE_MS, MAX_COMMENT_ATTEMPTS } from '../../../shared/domain/first-comment.js';
import type { FirstComment, Post } from '../../../shared/domain/posts.js';
import type {
  CommentLookupOutcome,
  CommentLookupRequest,
  CommentOutcome,
  CommentRequest,
} from '../../../shared/ports/connector.js';
import { makeDeliverPost } from '../../../shared/services/delivery/deliver-post.js';
import {
  aDeliveryWorld,
  atDelivery,
  DELIVERY_NOW,
  FakeNetwork,
} from '../support/in-memory-delivery-ports.js';

type CommentAnswer =
  | { kind: 'make' }
  | { kind: 'fail'; outcome: Extract<CommentOutcome, { kind: 'failed' }> }
  /** The network made the comment (or not), and the answer was lost. */
  | { kind: 'unknown'; made: boolean }
  | { kind: 'pending' };

/** A network that takes first comments: scripted answers, and the comments it holds. */
class CommentingNetwork extends FakeNetwork {
  readonly comments: string[] = [];
  readonly commentCalls: CommentRequest[] = [];
  readonly commentLookups: CommentLookupRequest[] = [];
  private readonly commentScript: CommentAnswer[] = [];
  findComment?: (request: CommentLookupRequest) => Promise<CommentLookupOutcome>;

  constructor(options: { canLookUpComments?: boolean } = {}) {
    super();
    if (options.canLookUpComments !== false) {
      this.findComment = async (request) => {
        this.commentLookups.push(request);
        const index = this.comments.indexOf(request.clientReference);
        return index < 0
          ? { kind: 'not_found' }
          : {
              kind: 'found',
              platformPostId: `c-${index + 1}`,
              platformPostUrl: `https://network.example/c/${index + 1}`,
            };
      };
    }
  }

  answerComments(...answers: CommentAnswer[]): this {
    this.commentScript.push(...answers);
    return this;
  }

  async publishComment(request: CommentRequest): Promise<CommentOutcome> {
    this.commentCalls.push(request);
    const answer = this.commentScript.shift() ?? { kind: 'make' };
    const make = (): CommentOutcome => {
      this.comments.push(request.clientReference);
      const n = this.comments.length;
      return {
        kind: 'published',
        platformPostId: `c-${n}`,
        platformPostUrl: `https://network.example/c/${n}`,
      };
    };
    switch (answer.kind) {
      case 'make':
        return make();
      case 'fail':
        return answer.outcome;
      case 'unknown':
        if (answer.made) make();
        return { kind: 'unknown', code: 'CONNECTION_RESET', message: 'The connection was reset.' };
      case 'pending':
        return { kind: 'pending', progress: { container: 'k1' }, checkAfterSeconds: 20, stage: 'processing' };
    }
  }
}

const COMMENT: FirstComment = { text: 'Details in the replies', status: 'waiting', attempts: 0 };

async function setup(network = new CommentingNetwork()) {
  const world = await aDeliveryWorld({ network });
  const deliver = () => makeDeliverPost(world)(world.message);
  return { ...world, network, deliver };
}

/** A post the network has published and named, whose comment is due now. */
function publishedWithComment(comment: Partial<FirstComment> = {}): Partial<Post> {
  return {
    status: 'published',
    publishedAt: atDelivery(-1000),
    platformPostId: 'net-1',
    platformPostUrl: 'https://network.example/net-1',
    firstComment: { ...COMMENT, status: 'queued', nextAttemptAt: atDelivery(0), ...comment },
  };
}

const refused = (failure: 'permanent' | 'transient' | 'rate_limited', retryAfterSeconds?: number) => ({
  kind: 'fail' as const,
  outcome: {
    kind: 'failed' as const,
    failure,
    code: failure === 'permanent' ? 'PERMISSION_DENIED' : 'PLATFORM_UNAVAILABLE',
    message: 'The network refused the comment.',
    ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
  },
});

describe('a post’s first comment', () => {
  it('waits while the post is delivered, is due once it is published, then is made on the post', async () => {
    // Prepare
    const world = await setup();
    world.seedPost({ firstComment: COMMENT });

    // Act: the post's delivery, then the message its comment's due time sends.
    const first = await world.deliver();
    const afterPublish = await world.stored();
    const second = await world.deliver();
    const afterComment = await world.stored();

    // Assess
    expect(first).toBe('published');
    expect(afterPublish.firstComment).toMatchObject({ status: 'queued', nextAttemptAt: atDelivery(0) });
    expect(second).toBe('comment');
    expect(world.network.commentCalls).toHaveLength(1);
    expect(world.network.commentCalls[0]?.post.platformPostId).toBe(afterPublish.platformPostId);
    expect(world.network.commentCalls[0]?.comment.text).toBe(COMMENT.text);
    expect(afterComment).toMatchObject({
      status: 'published',
      platformPostId: afterPublish.platformPostId,
      firstComment: {
        status: 'published',
        attempts: 1,
        platformCommentId: 'c-1',
        platformCommentUrl: 'https://network.example/c/1',
      },
    });
    expect(world.network.posts).toHaveLength(1);
  });

  it('is not due while the network has not named the post', () => {
    // Prepare: published, its id still to come.
    const before = { status: 'publishing', firstComment: COMMENT } as Post;
    const after = {
      ...before,
      status: 'published',
      version: 2,
      delivery: {
        postIdFollowUp: { progress: '{}', checks: 0, since: atDelivery(0), nextCheckAt: atDelivery(60_000) },
      },
    } as Post;

    // Act
    const effects = deliveryEffects(before, after, DELIVERY_NOW);

    // Assess: only the follow-up's wake, at its own time.
    expect(effects.enqueue?.delaySeconds).toBe(60);
  });

  it('refused for good: failed with our error, the post stays published, never tried again', async () => {
    // Prepare
    const world = await setup(new CommentingNetwork().answerComments(refused('permanent')));
    world.seedPost(publishedWithComment());

    // Act
    const result = await world.deliver();
    const again = await world.deliver();

    // Assess
    expect(result).toBe('comment');
    expect(await world.stored()).toMatchObject({
      status: 'published',
      firstComment: { status: 'failed', attempts: 1, error: { code: 'PERMISSION_DENIED', retryable: false } },
    });
    expect(again).toBe('dropped');
    expect(world.network.commentCalls).toHaveLength(1);
  });

  it('a refusal that may pass is retried alone, with backoff, until its calls run out', async () => {
    // Prepare
    const failures = Array.from({ length: MAX_COMMENT_ATTEMPTS }, () => refused('transient'));
    const world = await setup(new CommentingNetwork().answerComments(...failures));
    world.seedPost(publishedWithComment());

    // Act: the first call, then each retry at its time.
    expect(await world.deliver()).toBe('comment');
    const retrying = await world.stored();
    for (let call = 2; call <= MAX_COMMENT_ATTEMPTS; call++) {
      const due = Date.parse((await world.stored()).firstComment?.nextAttemptAt ?? '');
      world.clock.advance(due - world.clock.now());
      expect(await world.deliver()).toBe('comment');
    }

    // Assess
    expect(retrying.firstComment).toMatchObject({
      status: 'queued',
      attempts: 1,
      nextAttemptAt: atDelivery(30_000),
    });
    expect(world.network.commentCalls).toHaveLength(MAX_COMMENT_ATTEMPTS);
    expect(world.network.posts).toHaveLength(0);
    expect((await world.stored()).firstComment).toMatchObject({
      status: 'failed',
      attempts: MAX_COMMENT_ATTEMPTS,
      error: { code: 'PLATFORM_UNAVAILABLE', retryable: true },
    });
  });

  it('waits as long as the network asks after a rate limit', async () => {
    const world = await setup(new CommentingNetwork().answerComments(refused('rate_limited', 900)));
    world.seedPost(publishedWithComment());

    await world.deliver();

    expect((await world.stored()).firstComment?.nextAttemptAt).toBe(atDelivery(900_000));
  });

  it('an unknown outcome is looked up: the comment the network made is kept, never made twice', async () => {
    // Prepare
    const world = await setup(new CommentingNetwork().answerComments({ kind: 'unknown', made: true }));
    world.seedPost(publishedWithComment());

    // Act
    await world.deliver();

    // Assess
    expect(world.network.commentCalls).toHaveLength(1);
    expect(world.network.commentLookups).toHaveLength(1);
    expect(world.network.commentLookups[0]?.since).toBe(atDelivery(0));
    expect(world.network.comments).toHaveLength(1);
    expect((await world.stored()).firstComment).toMatchObject({
      status: 'published',
      platformCommentId: 'c-1',
    });
  });

  it('an unknown outcome the network says it does not have is tried again', async () => {
    const world = await setup(new CommentingNetwork().answerComments({ kind: 'unknown', made: false }));
    world.seedPost(publishedWithComment());

    await world.deliver();

    expect((await world.stored()).firstComment).toMatchObject({
      status: 'queued',
      attempts: 1,
      error: { code: 'COMMENT_NOT_MADE' },
    });
  });

  it('an unknown outcome a network cannot look up ends uncertain, and is never tried again', async () => {
    // Prepare
    const network = new CommentingNetwork({ canLookUpComments: false }).answerComments({
      kind: 'unknown',
      made: true,
    });
    const world = await setup(network);
    world.seedPost(publishedWithComment());

    // Act
    await world.deliver();
    const again = await world.deliver();

    // Assess
    expect((await world.stored()).firstComment).toMatchObject({
      status: 'uncertain',
      error: { code: 'comment_uncertain', retryable: false },
    });
    expect(again).toBe('dropped');
    expect(network.commentCalls).toHaveLength(1);
  });

  it('a worker that died mid-call: the next one looks the comment up before any call', async () => {
    // Prepare: held by a worker until a moment ago; the network has its comment.
    const network = new CommentingNetwork();
    network.comments.push('pst_01JD0000000000000000000000-comment');
    const world = await setup(network);
    world.seedPost(
      publishedWithComment({
        status: 'publishing',
        attempts: 1,
        startedAt: atDelivery(-COMMENT_LEASE_MS - 1000),
        nextAttemptAt: atDelivery(-1000),
      }),
    );

    // Act
    await world.deliver();

    // Assess
    expect(network.commentCalls).toHaveLength(0);
    expect((await world.stored()).firstComment).toMatchObject({ status: 'published', attempts: 1 });
  });

  it('while the network processes it, it is checked again after the network’s wait, with its progress', async () => {
    const world = await setup(new CommentingNetwork().answerComments({ kind: 'pending' }, { kind: 'make' }));
    world.seedPost(publishedWithComment());

    await world.deliver();
    const pending = await world.stored();
    world.clock.advance(20_000);
    await world.deliver();

    expect(pending.firstComment).toMatchObject({
      status: 'queued',
      pendingChecks: 1,
      progress: '{"container":"k1"}',
    });
    expect(world.network.commentCalls[1]?.progress).toEqual({ container: 'k1' });
    expect(world.network.commentCalls[1]?.attempt).toBe(1);
    expect((await world.stored()).firstComment).toMatchObject({ status: 'published', attempts: 1 });
  });

  it('a write to the rest of the post meanwhile (a metrics refresh) does not lose the comment', async () => {
    // Prepare: while the network makes the comment, something else writes the post.
    const world = await setup();
    world.seedPost(publishedWithComment());
    const during = world.network.publishComment.bind(world.network);
    world.network.publishComment = async (request) => {
      const current = await world.stored();
      await world.posts.update(
        {
          ...current,
          metrics: { readings: [], collection: { nextCollectAt: atDelivery(0), checks: 0 } },
          version: current.version + 1,
        },
        current.version,
      );
      return during(request);
    };

    // Act
    const result = await world.deliver();

    // Assess
    expect(result).toBe('comment');
    const stored = await world.stored();
    expect(stored.firstComment).toMatchObject({ status: 'published', platformCommentId: 'c-1' });
    expect(stored.metrics?.collection?.nextCollectAt).toBe(atDelivery(0));
  });

  it('a write meanwhile does not lose what the call finished either (its progress, with an unknown outcome)', async () => {
    // Prepare: the call keeps progress and ends without an answer while the post is written.
    const network = new CommentingNetwork({ canLookUpComments: false });
    const world = await setup(network);
    world.seedPost(publishedWithComment());
    network.publishComment = async () => {
      const current = await world.stored();
      await world.posts.update({ ...current, version: current.version + 1 }, current.version);
      return {
        kind: 'unknown',
        code: 'PLATFORM_TIMEOUT',
        message: 'No answer.',
        progress: { container: 'k9' },
      };
    };

    // Act
    await world.deliver();

    // Assess: settled uncertain, over the other write.
    expect((await world.stored()).firstComment).toMatchObject({ status: 'uncertain' });
  });

  it('sends post.first_comment_published once it is made, and post.first_comment_failed when it fails', () => {
    const published = { status: 'published', version: 3, updatedAt: atDelivery(0) } as Post;
    const making = { ...published, firstComment: { ...COMMENT, status: 'publishing' as const, attempts: 1 } };
    const made = {
      ...making,
      version: 4,
      firstComment: { ...making.firstComment, status: 'published' as const },
    };
    const failed = {
      ...making,
      version: 4,
      firstComment: { ...making.firstComment, status: 'failed' as const },
    };

    expect(postEvents(making, made).map((event) => event.type)).toEqual(['post.first_comment_published']);
    expect(postEvents(making, failed).map((event) => event.type)).toEqual(['post.first_comment_failed']);
    expect(postEvents(made, { ...made, version: 5 })).toEqual([]);
  });

  it('a metrics collection the comment kept waiting is woken once the comment is settled', () => {
    const collection = { nextCollectAt: atDelivery(3_600_000), slot: 0 };
    const making = {
      status: 'published',
      platformPostId: 'net-1',
      version: 3,
      metrics: { readings: [], collection },
      firstComment: { ...COMMENT, status: 'publishing', attempts: 1, nextAttemptAt: atDelivery(120_000) },
    } as unknown as Post;
    const made = {
      ...making,
      version: 4,
      firstComment: { ...COMMENT, status: 'published', attempts: 1 },
    } as Post;

    expect(deliveryEffects(making, made, DELIVERY_NOW).schedule?.fireAt).toBeInstanceOf(Date);
  });
});
