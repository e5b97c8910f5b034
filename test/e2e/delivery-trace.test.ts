import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerTracing } from '../../shared/adapters/observability/tracer.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/**
 * A published post's trace, end to end through our own code on the local host: the request's
 * X-Amzn-Trace-Id → the post (Post.trace) → the table's stream → the outbox → the delivery
 * message → the worker's lines and its network call's subsegment (docs/operating.md "Traces").
 * The local host takes the caller's header (Lambda takes its invocation's own instead:
 * requestTraceOf); a recording tracer stands in for Powertools'.
 */
describe('the trace of a published post', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;
  const subsegments: { name: string; annotations: Readonly<Record<string, string>> }[] = [];

  beforeAll(async () => {
    registerTracing({
      captureAwsClient: (client) => client,
      inSubsegment: (name, annotations, fn) => {
        subsegments.push({ name, annotations });
        return fn();
      },
    });
    host = await startTestHost({ delivery: { sandboxLatencyMs: { min: 5, max: 20 } } });
    tenant = await host.admin.bootstrap({ name: 'Traces' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
    registerTracing(undefined);
  });

  const publishedLine = (id: string) =>
    eventually(
      async () => host.logs.find((entry) => entry.message === 'post published' && entry.fields.postId === id),
      { timeoutMs: 15_000, what: `post ${id} to be published` },
    );
  const publish = async (content: string, headers: Record<string, string>) => {
    const response = await posts.create(tweet(tenant, { content }), headers);
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    return publishedLine(id);
  };
  const networkCallsOf = (postId: unknown) =>
    subsegments.filter((segment) => segment.annotations.post_id === postId);

  it("connects the request's trace id to the worker's lines and its network call", async () => {
    // Prepare
    const root = '1-6748a1b2-0123456789abcdef01234567';

    // Act
    const published = await publish('Traced', {
      'X-Amzn-Trace-Id': `Root=${root};Parent=53995c3f42cd8ad8;Sampled=1`,
    });

    // Assess
    expect(published.fields.requestTraceId).toBe(root);
    expect(networkCallsOf(published.fields.postId)).toEqual([
      {
        name: 'sandbox.publish',
        annotations: { network: 'sandbox', post_id: published.fields.postId, request_trace_id: root },
      },
    ]);
  });

  it('connects it as well when the post was created by an MCP tool call', async () => {
    // Prepare
    const root = '1-6748a1b2-fedcba9876543210fedcba98';
    const client = new Client({ name: 'traced-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${host.baseUrl}/mcp`), {
      requestInit: {
        headers: { Authorization: `Bearer ${tenant.apiKey}`, 'X-Amzn-Trace-Id': `Root=${root};Sampled=1` },
      },
    });
    await client.connect(transport);

    // Act
    const created = await client.callTool({
      name: 'createPost',
      arguments: { workspaceId: tenant.workspaceId, body: tweet(tenant, { content: 'Traced by an agent' }) },
    });
    await client.close();
    const published = await publishedLine(String((created.structuredContent as { id: string }).id));

    // Assess
    expect(published.fields.requestTraceId).toBe(root);
    expect(networkCallsOf(published.fields.postId)).toEqual([
      {
        name: 'sandbox.publish',
        annotations: { network: 'sandbox', post_id: published.fields.postId, request_trace_id: root },
      },
    ]);
  });

  it("carries nothing from a header that is not X-Ray's shape, and still publishes", async () => {
    // Act
    const published = await publish('Untraced', { 'X-Amzn-Trace-Id': 'Root=1-nope;Sampled=1' });

    // Assess
    expect(published.fields).not.toHaveProperty('requestTraceId');
    expect(networkCallsOf(published.fields.postId)).toEqual([
      { name: 'sandbox.publish', annotations: { network: 'sandbox', post_id: published.fields.postId } },
    ]);
  });
});
