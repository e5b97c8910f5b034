import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { limitFor, windowAt } from '../../shared/domain/rate-limit-policy.js';
import { operations } from '../../shared/operations/registry.js';
import { fixedClock } from '../../shared/ports/clock.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { alwaysFails } from '../support/test-operations.js';

// 20 s into a minute: the rate-limit window cannot roll over under the test.
// In the future: DynamoDB Local deletes items whose TTL the wall clock has passed, counters included.
const START = Date.UTC(2099, 0, 1, 12, 0, 20);

describe('request logs and metrics over HTTP', () => {
  const clock = fixedClock(START);
  let host: TestHost;
  let tenant: BootstrapResult;

  beforeAll(async () => {
    host = await startTestHost({ clock, operations: [...operations, alwaysFails] });
    tenant = await host.admin.bootstrap({ name: 'Logged' });
  });
  afterAll(async () => {
    await host.stop();
  });

  const linesFor = (requestId: string) => host.logs.filter((entry) => entry.fields.requestId === requestId);

  it('writes one line per request carrying the ids an operator searches by, and never the key', async () => {
    const response = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts`, {
      apiKey: tenant.apiKey,
      headers: { 'X-Request-Id': 'trace-log-0001' },
    });
    expect(response.status).toBe(200);
    const [line, ...others] = linesFor('trace-log-0001');
    expect(others).toEqual([]);
    expect(line).toMatchObject({
      level: 'info',
      message: 'request',
      fields: {
        requestId: 'trace-log-0001',
        function: 'listAccounts',
        operation: 'listAccounts',
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        method: 'GET',
        status: 200,
      },
    });
    expect(line?.fields.lambdaRequestId).toEqual(expect.any(String));
    expect(typeof line?.fields.coldStart).toBe('boolean');
    expect(line?.fields.durationMs).toEqual(expect.any(Number));
    expect(JSON.stringify(host.logs)).not.toContain(tenant.apiKey);
  });

  it('marks only the first request a function serves as a cold start', async () => {
    for (const id of ['trace-cold-0001', 'trace-cold-0002']) {
      await host.call('/v1/workspaces', { apiKey: tenant.apiKey, headers: { 'X-Request-Id': id } });
    }
    expect(linesFor('trace-cold-0001')[0]?.fields.coldStart).toBe(true);
    expect(linesFor('trace-cold-0002')[0]?.fields.coldStart).toBe(false);
  });

  it('logs an unexpected failure as an error with the request id, while the caller sees only the envelope', async () => {
    const response = await host.call('/v1/always-fails', { headers: { 'X-Request-Id': 'trace-fail-0001' } });
    expect(response.status).toBe(500);
    const lines = linesFor('trace-fail-0001');
    const failure = lines.find((entry) => entry.message === 'unexpected error');
    expect(failure?.level).toBe('error');
    expect(failure?.fields.error).toBeInstanceOf(Error);
    expect(lines.find((entry) => entry.message === 'request failed')?.fields.status).toBe(500);
  });

  it('counts failed authentications', async () => {
    const before = host.metricPoints.filter((point) => point.name === 'AuthenticationFailures').length;
    const response = await host.call('/v1/workspaces', { apiKey: `smcp_${'0'.repeat(64)}` });
    expect(response.status).toBe(401);
    const after = host.metricPoints.filter((point) => point.name === 'AuthenticationFailures').length;
    expect(after).toBe(before + 1);
  });

  it('counts rate-limited requests by family', async () => {
    const db = makeDocumentClient(
      makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint }),
    );
    try {
      await db.send(
        new UpdateCommand({
          TableName: host.config.tables.rateLimits,
          Key: { pk: `${tenant.tenantId}#other#${windowAt(clock.now()).startMs}` },
          UpdateExpression: 'SET #count = :count',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':count': limitFor('other', 'free') },
        }),
      );
    } finally {
      db.destroy();
    }
    const response = await host.call('/v1/workspaces', { apiKey: tenant.apiKey });
    expect(response.status).toBe(429);
    expect(host.metricPoints).toContainEqual({
      name: 'RateLimitedRequests',
      value: 1,
      unit: 'count',
      dimensions: { family: 'other' },
    });
  });
});
