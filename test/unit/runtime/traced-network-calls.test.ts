import { afterEach, describe, expect, it } from 'vitest';
import { registerTracing } from '../../../shared/adapters/observability/tracer.js';
import type { Connector, PublishOutcome, PublishRequest } from '../../../shared/ports/connector.js';
import {
  tracedConnectorFor,
  tracedMediaFetcher,
  tracedWebhookSender,
} from '../../../shared/runtime/traced-network-calls.js';
import { aPost } from '../delivery/support.js';
import { anAccount } from '../support/builders.js';

const TRACE = 'Root=1-6748a1b2-0123456789abcdef01234567;Parent=53995c3f42cd8ad8;Sampled=1';
const PUBLISHED: PublishOutcome = {
  kind: 'published',
  platformPostId: '1',
  platformPostUrl: 'https://x.com/1',
};

describe('the delivery side’s calls out, traced', () => {
  const subsegments: { name: string; annotations: Readonly<Record<string, string>> }[] = [];
  const record = () =>
    registerTracing({
      captureAwsClient: (client) => client,
      inSubsegment: (name, annotations, fn) => {
        subsegments.push({ name, annotations });
        return fn();
      },
    });
  afterEach(() => {
    registerTracing(undefined);
    subsegments.length = 0;
  });

  /** A connector that publishes and looks posts up, and makes no comments. */
  const connector: Connector = {
    publish: async () => PUBLISHED,
    findPublished: async () => ({ kind: 'not_found' }),
  };
  const connectorFor = tracedConnectorFor(() => connector);
  const account = anAccount({ platform: 'twitter', sandbox: false });

  it("a connector's call is a subsegment named after its network, annotated with the post and its request's trace", async () => {
    // Prepare
    record();
    const post = aPost({ trace: TRACE });

    // Act
    const outcome = await connectorFor(account)?.publish({ post } as PublishRequest);

    // Assess
    expect(outcome).toEqual(PUBLISHED);
    expect(subsegments).toEqual([
      {
        name: 'twitter.publish',
        annotations: {
          network: 'twitter',
          post_id: post.postId,
          request_trace_id: '1-6748a1b2-0123456789abcdef01234567',
        },
      },
    ]);
  });

  it('keeps what the connector lacks absent (a missing look-up means "cannot look up"), and is one wrapper per connector', () => {
    const traced = connectorFor(account);
    expect(traced?.findPublished).toBeTypeOf('function');
    expect(traced?.publishComment).toBeUndefined();
    expect(traced?.findComment).toBeUndefined();
    expect(connectorFor(account)).toBe(traced);
    expect(tracedConnectorFor(() => undefined)(account)).toBeUndefined();
  });

  it('a webhook POST and a media fetch are subsegments too; untraced, each is the call itself', async () => {
    // Prepare
    const send = tracedWebhookSender(async () => ({ kind: 'answered', status: 204 }));
    const fetchMedia = tracedMediaFetcher(async (url) => ({
      bytes: Buffer.from('x'),
      contentType: 'image/png',
      finalUrl: url,
    }));

    // Act
    const untraced = await send({ url: 'https://example.com/hook', headers: {}, body: new Uint8Array() });
    record();
    await send({ url: 'https://example.com/hook', headers: {}, body: new Uint8Array() });
    await fetchMedia('https://example.com/a.png', 'image');

    // Assess
    expect(untraced).toEqual({ kind: 'answered', status: 204 });
    expect(subsegments.map((segment) => segment.name)).toEqual(['webhook.post', 'media.fetch']);
  });
});
