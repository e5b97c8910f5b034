/**
 * Records the OpenAPI document's examples from the running service (npm run openapi:examples):
 * starts the local host on loopback as the tests do (DynamoDB Local in memory, s3rver, the HTTP
 * server, no delivery pipeline so nothing leaves the machine), seeds two tenants through the
 * admin use cases, calls every operation of the registry over real HTTP (scripts/openapi-examples/
 * scenario.ts), makes run-dependent values stable and secrets fake (normalize.ts), and writes
 * shared/http/openapi-examples.json. test/integration/openapi-examples.test.ts checks every
 * example against its operation's schemas.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal } from '../infra/local/dynamodb-local.js';
import { LOCAL_MEDIA_BUCKET, LOCAL_REGION, startLocalHost } from '../infra/local/host.js';
import { makeDocumentClient, makeDynamoClient } from '../shared/adapters/dynamodb/client.js';
import { postEvents } from '../shared/domain/events.js';
import { newId } from '../shared/domain/ids.js';
import { PLATFORMS, type Platform } from '../shared/domain/platforms.js';
import type { Post } from '../shared/domain/posts.js';
import { limitFor, type RateLimitFamily, windowAt } from '../shared/domain/rate-limit-policy.js';
import { toDeliveredEnvelope } from '../shared/domain/webhooks/payloads.js';
import { DEFAULT_APP_OF_PLATFORM } from '../shared/networks/definitions.js';
import { fixedClock } from '../shared/ports/clock.js';
import { silentLogger } from '../shared/ports/logger.js';
import { noMetrics } from '../shared/ports/metrics.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../shared/runtime/network-config.js';
import { type Admin, type BootstrapResult, makeAdmin } from '../shared/services/admin.js';
import { makeMetricsSeeds } from './openapi-examples/metrics-seeds.js';
import { EXAMPLE_NETWORKS } from './openapi-examples/networks.js';
import { makeNormalizer } from './openapi-examples/normalize.js';
import { makeRecorder } from './openapi-examples/recorder.js';
import { runScenario } from './openapi-examples/scenario.js';
import { sortedKeys, writeExamples } from './openapi-examples/write.js';

const OUTPUT = fileURLToPath(new URL('../shared/http/openapi-examples.json', import.meta.url));
/**
 * A fixed clock, advanced one second per call, so every run gives the same timestamps and id time
 * parts. In 2099: DynamoDB Local deletes items whose TTL the wall clock has passed.
 */
const START = Date.UTC(2099, 0, 1, 12, 0, 0);
const DAY_MS = 86_400_000;
type FixedClock = ReturnType<typeof fixedClock>;

/**
 * admin.bootstrap, with the clock moving a second between records: ids made in one millisecond
 * differ only by their random part, so lists of them would come back in a new order on every run.
 */
async function bootstrap(admin: Admin, clock: FixedClock, name: string): Promise<BootstrapResult> {
  const tick = () => clock.advance(1000);
  const tenant = await admin.createTenant({ name });
  tick();
  const workspace = await admin.createWorkspace({ tenantId: tenant.tenantId, name: `${name} workspace` });
  const accounts = {} as Record<Platform, string>;
  for (const platform of PLATFORMS) {
    tick();
    const account = await admin.createSandboxAccount({
      tenantId: tenant.tenantId,
      workspaceId: workspace.workspaceId,
      platform,
    });
    accounts[platform] = account.accountId;
  }
  tick();
  const agent = await admin.createAgent(
    { role: 'owner' },
    { tenantId: tenant.tenantId, name: `${name} agent`, fromWorkspaceId: workspace.workspaceId },
  );
  tick();
  const key = await admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId });
  tick();
  return {
    tenantId: tenant.tenantId,
    workspaceId: workspace.workspaceId,
    agentId: agent.agentId,
    apiKey: key.plaintext,
    accounts,
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  const clock = fixedClock(START);
  const dataDir = mkdtempSync(join(tmpdir(), 'openapi-examples-'));
  const dynamodb = await startDynamoDbLocal();
  try {
    const host = await startLocalHost({
      dataDir,
      port: 0,
      dynamodbEndpoint: dynamodb.endpoint,
      clock,
      observability: { logger: silentLogger, metrics: noMetrics },
      authCacheTtlSeconds: 0,
      authFailuresPerMinute: false,
      delivery: false,
      // The networks' real addresses: the authorize URL is only built, never fetched.
      networkEndpoints: NETWORK_ENDPOINT_DEFAULTS,
      // The connectable network's default app, so connecting it answers its consent URL; the
      // other networks have none (409).
      appCredentials: {
        credentialsFor: async (app) =>
          app === DEFAULT_APP_OF_PLATFORM[EXAMPLE_NETWORKS.connectable]
            ? { clientId: 'example-client-id', clientSecret: 'example-client-secret' }
            : undefined,
      },
      publicBaseUrl: 'https://api.example.com',
    });
    try {
      const admin = makeAdmin({ tenancy: host.deps.tenancy, clock });
      const main = await bootstrap(admin, clock, 'Acme');
      await admin.changePolicies(main.tenantId, main.workspaceId, {
        set: { blockedTerms: ['guaranteed returns'] },
      });
      await admin.setRedirectUris({ tenantId: main.tenantId, uris: ['https://app.example.com/connected'] });
      clock.advance(1000);
      const reader = await admin.createAgent(
        { role: 'owner' },
        {
          tenantId: main.tenantId,
          name: 'Analytics reader',
          fromWorkspaceId: main.workspaceId,
          permissions: ['posts:read'],
        },
      );
      const reviewed = await bootstrap(admin, clock, 'Northwind');
      await host.deps.tenancy.setWorkspacePolicies(reviewed.tenantId, reviewed.workspaceId, {
        requireApproval: true,
      });
      clock.advance(1000);
      const writer = await admin.createAgent(
        { role: 'owner' },
        {
          tenantId: reviewed.tenantId,
          name: 'Copywriter',
          fromWorkspaceId: reviewed.workspaceId,
          permissions: ['posts:read', 'posts:write'],
        },
      );
      const db = makeDocumentClient(makeDynamoClient({ region: LOCAL_REGION, endpoint: dynamodb.endpoint }));
      const lastSeen = new Map<string, Post>();
      const recorder = makeRecorder({
        baseUrl: host.baseUrl,
        apiKey: main.apiKey,
        advanceClock: () => clock.advance(1000),
      });
      await runScenario(recorder, {
        main,
        reviewed,
        ...makeMetricsSeeds(host.deps, main, clock, EXAMPLE_NETWORKS.documents),
        readerKey: (await admin.createApiKey({ tenantId: main.tenantId, agentId: reader.agentId })).plaintext,
        writerKey: (await admin.createApiKey({ tenantId: reviewed.tenantId, agentId: writer.agentId }))
          .plaintext,
        async emitEventsOf(postId) {
          const post = await host.deps.posts.get(main.tenantId, main.workspaceId, postId);
          if (!post) throw new Error(`No post ${postId}.`);
          for (const event of postEvents(lastSeen.get(postId), post)) {
            await host.deps.webhooks.appendEvents([
              { ...toDeliveredEnvelope(event), tenantId: event.tenantId },
            ]);
          }
          lastSeen.set(postId, post);
        },
        unknownId: (kind) => newId(kind, clock.now()),
        daysAhead: (days) => new Date(START + days * DAY_MS).toISOString(),
        async seedFailedDelivery(webhookId) {
          const at = clock.now() - 3_600_000;
          const key = { tenantId: main.tenantId, workspaceId: main.workspaceId, webhookId };
          const { delivery } = await host.deps.webhooks.createDelivery({
            ...key,
            event: {
              id: newId('event', at),
              type: 'post.published',
              createdAt: new Date(at).toISOString(),
              workspaceId: main.workspaceId,
              data: { postId: newId('post', at), status: 'published' },
            },
            createdAt: new Date(at).toISOString(),
          });
          await host.deps.webhooks.recordAttempt(
            { ...key, deliveryId: delivery.deliveryId },
            {
              attempt: {
                at: new Date(at + 2_000).toISOString(),
                responseStatus: 503,
                durationMs: 184,
                error: 'The receiver answered 503.',
              },
              status: 'failed',
            },
            0,
          );
          return delivery.deliveryId;
        },
        async exhaustRateLimit(family: RateLimitFamily) {
          const tenant = await host.deps.tenancy.getTenant(main.tenantId);
          await db.send(
            new UpdateCommand({
              TableName: host.config.tables.rateLimits,
              Key: { pk: `${main.tenantId}#${family}#${windowAt(clock.now()).startMs}` },
              UpdateExpression: 'SET #count = :count',
              ExpressionAttributeNames: { '#count': 'count' },
              ExpressionAttributeValues: { ':count': limitFor(family, tenant?.planTier ?? 'free') },
            }),
          );
        },
      });
      db.destroy();
      const { normalize } = makeNormalizer({
        storageEndpoint: host.s3Endpoint,
        bucket: LOCAL_MEDIA_BUCKET,
        region: LOCAL_REGION,
      });
      const byOperation = Object.fromEntries(
        [...recorder.recorded].map(([operationId, recorded]) => [
          operationId,
          normalize(sortedKeys(recorded)),
        ]),
      );
      writeExamples(OUTPUT, byOperation);
      const statuses = [...recorder.recorded.values()].reduce(
        (sum, recorded) => sum + Object.keys(recorded.responses).length,
        0,
      );
      process.stdout.write(
        `Recorded ${statuses} responses of ${recorder.recorded.size} operations in ${Date.now() - started} ms: ${OUTPUT}\n`,
      );
    } finally {
      await host.stop();
    }
  } finally {
    await dynamodb.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
