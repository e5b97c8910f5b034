import { request as httpRequest } from 'node:http';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { makeUnconfiguredCipher } from '../../shared/adapters/kms/unconfigured-cipher.js';
import { makeUnconfiguredStorage } from '../../shared/adapters/s3/unconfigured-storage.js';
import { type IdKind, newId } from '../../shared/domain/ids.js';
import {
  limitFor,
  RATE_LIMIT_FAMILIES,
  type RateLimitFamily,
  windowAt,
} from '../../shared/domain/rate-limit-policy.js';
import type { Operation } from '../../shared/http/operation.js';
import { operations } from '../../shared/operations/registry.js';
import { fixedClock } from '../../shared/ports/clock.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { seedPostWithMetrics, seedRealAccount } from '../support/metrics-fixtures.js';
import { seedMedia, tweet } from '../support/post-fixtures.js';
import { makeStorageOutageSwitch } from '../support/storage-outage-switch.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/**
 * The OpenAPI document's error responses against what the operations really answer, over HTTP:
 * every operation is probed in every way that can fail (no key, an inactive plan, a key without
 * its permission, a spent rate limit, an unknown workspace, a key for several workspaces, a body
 * that is not JSON, a body over 1 MiB, malformed input, unknown ids, the state-dependent failures,
 * a deployment without media storage). Then, for each operation:
 * - every error it answered is documented, with that code under that status;
 * - every code its document lists was answered at least once (internal_error aside: no probe may
 *   cause a 500).
 * The probes do not read the operations' declarations, so a handler that answers an undeclared
 * status, or a declaration nothing answers, fails here.
 */

// 20 s into a minute: a rate-limit window preloaded now is still the window of every probe.
// In the future: DynamoDB Local deletes items whose TTL the wall clock has passed, counters included.
const START = Date.UTC(2099, 0, 1, 12, 0, 20);
const START_ISO = new Date(START).toISOString();
/** Metrics as the collection leaves them after one reading. */
const READ_ONCE = { readings: [{ collectedAt: START_ISO, metrics: { likes: 1 } }] };
const READ_HOUR_AGO = {
  readings: [{ collectedAt: new Date(START - 3_600_000).toISOString(), metrics: { likes: 1 } }],
};

interface Probe {
  method: string;
  path: string;
  apiKey?: string;
  headers?: Record<string, string>;
  body?: string;
}

interface DocumentedOperation {
  operationId: string;
  responses: Record<
    string,
    {
      content?: {
        'application/json': { schema: { allOf?: { properties?: { error?: { enum: string[] } } }[] } };
      };
    }
  >;
}

const PARAM_KINDS: Record<string, IdKind> = {
  workspace_id: 'workspace',
  account_id: 'account',
  post_id: 'post',
  media_id: 'media',
  webhook_id: 'webhook',
  delivery_id: 'webhookDelivery',
};

/** The operation's path with `ids` filled in, and made-up ids of the right kind for the rest. */
function pathOf(operation: Operation, ids: Record<string, string>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    if (name === 'platform') return ids.platform ?? 'twitter';
    const kind = PARAM_KINDS[name];
    if (!kind) throw new Error(`Teach this test the kind of {${name}} in ${operation.path}`);
    return ids[name] ?? newId(kind);
  });
}

/** Sends a probe over plain HTTP, so that any method may carry a body (fetch refuses one on GET). */
function send(baseUrl: string, probe: Probe): Promise<{ status: number; body: string }> {
  const url = new URL(probe.path, baseUrl);
  const body = probe.body === undefined ? undefined : Buffer.from(probe.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: probe.method,
        headers: {
          ...(probe.apiKey && { authorization: `Bearer ${probe.apiKey}` }),
          ...(body && { 'content-length': String(body.length) }),
          ...probe.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const byId = (id: string) => operations.find((operation) => operation.id === id) as Operation;

describe('the error statuses each operation answers match its OpenAPI document', () => {
  let host: TestHost;
  let owner: BootstrapResult;
  const outage = makeStorageOutageSwitch();
  const answered = new Map<string, Set<string>>();
  let documented: Record<string, DocumentedOperation>;

  const json = { 'content-type': 'application/json' };

  /** Sends the probe and records the error it got, as "status code", for the operation. */
  const probe = async (operation: Operation, request: Probe) => {
    const response = await send(host.baseUrl, request);
    if (response.status >= 400) {
      const { error } = JSON.parse(response.body) as { error: string };
      const seen = answered.get(operation.id) ?? new Set<string>();
      seen.add(`${response.status} ${error}`);
      answered.set(operation.id, seen);
    }
    return response;
  };

  /** A call that must succeed while the probes are being set up. */
  const prepare = async (request: Probe) => {
    const response = await send(host.baseUrl, { apiKey: owner.apiKey, ...request });
    if (response.status >= 300) throw new Error(`${request.method} ${request.path}: ${response.body}`);
    return JSON.parse(response.body) as Record<string, string>;
  };
  const postsPath = (tenant: BootstrapResult) => `/v1/workspaces/${tenant.workspaceId}/posts`;
  const createPost = async (tenant: BootstrapResult, overrides: Record<string, unknown> = {}) =>
    (
      await prepare({
        method: 'POST',
        path: postsPath(tenant),
        apiKey: tenant.apiKey,
        headers: json,
        body: JSON.stringify(tweet(tenant, overrides)),
      })
    ).id as string;
  const issueUpload = async () =>
    (
      await prepare({
        method: 'POST',
        path: `/v1/workspaces/${owner.workspaceId}/media/upload-url`,
        headers: json,
        body: JSON.stringify({ filename: 'a.png', mimeType: 'image/png', sizeBytes: 10 }),
      })
    ).mediaId as string;
  /** A webhook of `tenant`'s workspace, written through the store: as many as the probes need. */
  const seedWebhook = async (tenant: BootstrapResult, limit = Number.MAX_SAFE_INTEGER) => {
    const webhookId = newId('webhook', START);
    await host.deps.webhooks.createWebhook(
      {
        webhookId,
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        url: 'https://receiver.example.com/hook',
        events: ['post.published'],
        createdAt: new Date(START).toISOString(),
        consecutiveFailures: 0,
        secretCiphertext: 'never-decrypted-here',
      },
      limit,
    );
    return webhookId;
  };
  const seedDelivery = async (tenant: BootstrapResult, webhookId: string) =>
    (
      await host.deps.webhooks.createDelivery({
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        webhookId,
        event: {
          id: newId('event', START),
          type: 'post.published',
          createdAt: new Date(START).toISOString(),
          workspaceId: tenant.workspaceId,
          data: { postId: newId('post', START) },
        },
        createdAt: new Date(START).toISOString(),
      })
    ).delivery.deliveryId;

  /**
   * A request that succeeds when nothing is wrong: the ids and body each operation needs, made
   * fresh for every call. The probes below break one thing at a time.
   */
  const validRequest = async (operation: Operation): Promise<Probe & { ids: Record<string, string> }> => {
    const ids: Record<string, string> = {
      workspace_id: owner.workspaceId,
      account_id: owner.accounts.twitter,
    };
    let body: unknown;
    switch (operation.id) {
      case 'createPost':
      case 'validatePost':
        body = tweet(owner, { status: 'draft' });
        break;
      case 'getPost':
      case 'cancelPost':
        ids.post_id = await createPost(owner, { status: 'draft' });
        break;
      case 'getPostMetrics':
        ids.post_id = await seedPostWithMetrics(host, owner, { at: START_ISO, metrics: READ_ONCE });
        break;
      case 'getAccountMetrics':
        ids.account_id = await seedRealAccount(host, owner, { at: START_ISO, metrics: READ_ONCE });
        break;
      // Read an hour ago: a refresh is allowed (more than 15 minutes since).
      case 'refreshPostMetrics':
        ids.post_id = await seedPostWithMetrics(host, owner, { at: START_ISO, metrics: READ_HOUR_AGO });
        break;
      case 'updatePost':
        ids.post_id = await createPost(owner, { status: 'draft' });
        body = { content: 'changed' };
        break;
      case 'approvePost':
      case 'rejectPost':
        ids.post_id = await createPost(review);
        ids.workspace_id = review.workspaceId;
        if (operation.id === 'rejectPost') body = { reason: 'Not now.' };
        break;
      case 'connectAccount':
        body = { platform: 'twitter' };
        break;
      // A sandbox account of its own each time: a disconnect must not take the owner's from the others.
      case 'disconnectAccount':
        ids.account_id = (
          await host.admin.createSandboxAccount({
            tenantId: owner.tenantId,
            workspaceId: owner.workspaceId,
            platform: 'twitter',
          })
        ).accountId;
        break;
      case 'createUploadUrl':
        body = { filename: 'a.png', mimeType: 'image/png', sizeBytes: 10 };
        break;
      case 'importMedia':
        body = { url: 'https://cdn.example.com/a.png', type: 'image' };
        break;
      case 'confirmMedia':
      case 'deleteMedia':
      case 'deleteMediaShort':
        ids.media_id = await issueUpload();
        break;
      case 'getMedia':
        ids.media_id = await seedMedia(host, owner, 'image/png');
        break;
      case 'createWebhook':
        body = { url: 'https://receiver.example.com/hook', events: ['post.published'] };
        break;
      // Webhooks seeded apart, in a tenant of their own, so the owner's workspace stays under 25.
      case 'getWebhook':
      case 'deleteWebhook':
      case 'deleteWebhookShort':
      case 'listWebhookDeliveries':
      case 'listWebhookDeliveriesShort':
      case 'testWebhook':
        ids.webhook_id = await seedWebhook(hooks);
        ids.workspace_id = hooks.workspaceId;
        break;
      case 'retryWebhookDelivery':
        ids.webhook_id = await seedWebhook(hooks);
        ids.delivery_id = await seedDelivery(hooks, ids.webhook_id);
        ids.workspace_id = hooks.workspaceId;
        break;
    }
    const keyOf: Record<string, string> = {
      [review.workspaceId]: review.apiKey,
      [hooks.workspaceId]: hooks.apiKey,
    };
    const apiKey = keyOf[ids.workspace_id ?? ''] ?? owner.apiKey;
    return {
      method: operation.method,
      path: pathOf(operation, ids),
      apiKey,
      ...(body !== undefined && { headers: json, body: JSON.stringify(body) }),
      ids,
    };
  };

  let review: BootstrapResult;
  let hooks: BootstrapResult;
  let fullOfHooks: BootstrapResult;
  let strict: BootstrapResult;
  let inactive: BootstrapResult;
  let busy: BootstrapResult;
  const limitedKeys: string[] = [];
  let severalWorkspacesKey: string;

  beforeAll(async () => {
    const clock = fixedClock(START);
    host = await startTestHost({ clock, authFailuresPerMinute: false, dynamodbCalls: outage.counter });
    // Enterprise: the probes stay far below its limits, so no probe is refused for volume by accident.
    owner = await host.admin.bootstrap({ name: 'Owner', planTier: 'enterprise' });
    review = await host.admin.bootstrap({ name: 'Review', planTier: 'enterprise' });
    await host.deps.tenancy.setWorkspacePolicies(review.tenantId, review.workspaceId, {
      requireApproval: true,
    });
    strict = await host.admin.bootstrap({ name: 'Strict', planTier: 'enterprise' });
    hooks = await host.admin.bootstrap({ name: 'Hooks', planTier: 'enterprise' });
    fullOfHooks = await host.admin.bootstrap({ name: 'Full of hooks', planTier: 'enterprise' });
    for (let i = 0; i < 25; i++) await seedWebhook(fullOfHooks, 25);
    await host.deps.tenancy.setWorkspacePolicies(strict.tenantId, strict.workspaceId, {
      allowedPlatforms: ['linkedin'],
    });
    inactive = await host.admin.bootstrap({ name: 'Inactive' });
    await host.admin.setPlan(inactive.tenantId, { planStatus: 'inactive' });
    busy = await host.admin.bootstrap({ name: 'Busy' });
    const db = makeDocumentClient(
      makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint }),
    );
    for (const family of RATE_LIMIT_FAMILIES as readonly RateLimitFamily[]) {
      await db.send(
        new UpdateCommand({
          TableName: host.config.tables.rateLimits,
          Key: { pk: `${busy.tenantId}#${family}#${windowAt(START).startMs}` },
          UpdateExpression: 'SET #count = :count',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':count': limitFor(family, 'free') },
        }),
      );
    }
    // A key whose record the store's condition counts as held but a read finds no live record in:
    // how a request sees a key whose other request has not finished (its answer is not readable).
    await db.send(
      new PutCommand({
        TableName: host.config.tables.idempotency,
        Item: { pk: `${owner.tenantId}#held-key`, expiresAt: '0' },
      }),
    );
    db.destroy();
    for (const permissions of [['accounts:read'], ['posts:read']] as const) {
      const agent = await host.admin.createAgent(
        { role: 'owner' },
        {
          tenantId: owner.tenantId,
          name: `Only ${permissions[0]}`,
          fromWorkspaceId: owner.workspaceId,
          permissions: [...permissions],
        },
      );
      limitedKeys.push(
        (await host.admin.createApiKey({ tenantId: owner.tenantId, agentId: agent.agentId })).plaintext,
      );
    }
    const second = await host.admin.createWorkspace({ tenantId: owner.tenantId, name: 'Second' });
    const both = await host.admin.createAgent(
      { role: 'owner' },
      {
        tenantId: owner.tenantId,
        name: 'Both',
        scope: { kind: 'selected', workspaceIds: [owner.workspaceId, second.workspaceId] },
      },
    );
    severalWorkspacesKey = (
      await host.admin.createApiKey({ tenantId: owner.tenantId, agentId: both.agentId })
    ).plaintext;

    const served = await send(host.baseUrl, { method: 'GET', path: '/v1/openapi.json' });
    const document = JSON.parse(served.body) as {
      paths: Record<string, Record<string, DocumentedOperation>>;
    };
    documented = Object.fromEntries(
      Object.values(document.paths).flatMap((methods) =>
        Object.values(methods).map((entry) => [entry.operationId, entry]),
      ),
    );

    for (const operation of operations) {
      // Who is asking.
      const { apiKey: _key, ...anonymous } = await validRequest(operation);
      await probe(operation, anonymous);
      for (const apiKey of [inactive.apiKey, busy.apiKey, ...limitedKeys, severalWorkspacesKey]) {
        await probe(operation, { ...(await validRequest(operation)), apiKey });
      }
      // Where, and which: an unknown id, then a malformed one, in each path parameter.
      for (const name of Object.keys(PARAM_KINDS)) {
        if (!operation.path.includes(`{${name}}`)) continue;
        const unknown = await validRequest(operation);
        const { [name]: _known, ...others } = unknown.ids;
        await probe(operation, { ...unknown, path: pathOf(operation, others) });
        const malformed = await validRequest(operation);
        await probe(operation, {
          ...malformed,
          path: pathOf(operation, { ...malformed.ids, [name]: 'not-an-id' }),
        });
      }
      // What it sends.
      await probe(operation, {
        ...(await validRequest(operation)),
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      });
      await probe(operation, {
        ...(await validRequest(operation)),
        headers: json,
        body: JSON.stringify({ text: 'x'.repeat(1024 * 1024) }),
      });
      const paged = await validRequest(operation);
      await probe(operation, { ...paged, path: `${paged.path}?limit=not-a-number` });
      const shaped = await validRequest(operation);
      if (shaped.body !== undefined) await probe(operation, { ...shaped, body: '[1, 2, 3]' });
    }

    // The failures that depend on state.
    const draft = async () => createPost(owner, { status: 'draft' });
    const cancelled = await draft();
    await prepare({ method: 'DELETE', path: `${postsPath(owner)}/${cancelled}` });
    const on = (id: string, request: Probe) => probe(byId(id), { apiKey: owner.apiKey, ...request });
    await on('cancelPost', { method: 'DELETE', path: `${postsPath(owner)}/${cancelled}` });
    await on('updatePost', {
      method: 'PATCH',
      path: `${postsPath(owner)}/${cancelled}`,
      headers: json,
      body: '{"content":"x"}',
    });
    await on('approvePost', { method: 'POST', path: `${postsPath(owner)}/${await draft()}/approve` });
    await on('rejectPost', {
      method: 'POST',
      path: `${postsPath(owner)}/${await draft()}/reject`,
      headers: json,
      body: '{"reason":"no"}',
    });
    const tooLong = 'x'.repeat(300);
    await on('createPost', {
      method: 'POST',
      path: postsPath(owner),
      headers: json,
      body: JSON.stringify(tweet(owner, { content: tooLong })),
    });
    await on('updatePost', {
      method: 'PATCH',
      path: `${postsPath(owner)}/${await draft()}`,
      headers: json,
      body: JSON.stringify({ content: tooLong, status: 'publish' }),
    });
    await on('createPost', {
      method: 'POST',
      path: postsPath(strict),
      apiKey: strict.apiKey,
      headers: json,
      body: JSON.stringify(tweet(strict)),
    });
    await on('updatePost', {
      method: 'PATCH',
      path: `${postsPath(strict)}/${await createPost(strict, { status: 'draft' })}`,
      apiKey: strict.apiKey,
      headers: json,
      body: '{"status":"publish"}',
    });
    const keyed = { ...json, 'idempotency-key': 'reused-key' };
    await on('createPost', {
      method: 'POST',
      path: postsPath(owner),
      headers: keyed,
      body: JSON.stringify(tweet(owner, { status: 'draft' })),
    });
    await on('createPost', {
      method: 'POST',
      path: postsPath(owner),
      headers: keyed,
      body: JSON.stringify(tweet(owner, { status: 'draft', content: 'another' })),
    });
    await on('createPost', {
      method: 'POST',
      path: postsPath(owner),
      headers: { ...json, 'idempotency-key': 'held-key' },
      body: JSON.stringify(tweet(owner, { status: 'draft' })),
    });
    // A deployment that does not know its public address cannot make the OAuth callback URL.
    const publicBaseUrl = host.deps.publicBaseUrl;
    host.deps.publicBaseUrl = undefined;
    try {
      await on('connectAccount', {
        method: 'POST',
        path: `/v1/workspaces/${owner.workspaceId}/accounts/connect`,
        headers: json,
        body: '{"platform":"twitter"}',
      });
    } finally {
      host.deps.publicBaseUrl = publicBaseUrl;
    }
    // A network whose servers fetch our OAuth client metadata, on a host with no app for it.
    const fetchesMetadata = [...host.deps.networks.values()].find((network) => network.oauth.clientMetadata);
    if (!fetchesMetadata) throw new Error('No network fetches client metadata: the 409 probes need one.');
    for (const [id, document] of [
      ['oauthClientMetadata', 'client-metadata.json'],
      ['oauthClientJwks', 'jwks.json'],
    ] as const) {
      await on(id, { method: 'GET', path: `/v1/oauth/${fetchesMetadata.platform}/${document}` });
    }
    // Metrics with nothing to show: each 409 of the metrics reads.
    const metricsOf = (postId: string): Probe => ({
      method: 'GET',
      path: `${postsPath(owner)}/${postId}/metrics`,
    });
    const accountMetricsOf = (accountId: string): Probe => ({
      method: 'GET',
      path: `/v1/workspaces/${owner.workspaceId}/accounts/${accountId}/metrics`,
    });
    const unread = { readings: [], collection: { checks: 0, nextCollectAt: START_ISO } };
    await on('getPostMetrics', metricsOf(await draft()));
    await on(
      'getPostMetrics',
      metricsOf(await seedPostWithMetrics(host, owner, { at: START_ISO, metrics: unread })),
    );
    await on(
      'getPostMetrics',
      metricsOf(
        await seedPostWithMetrics(host, owner, {
          at: START_ISO,
          metrics: { readings: [], problem: { failure: 'not_found', at: START_ISO } },
        }),
      ),
    );
    const withoutScopes = await seedRealAccount(host, owner, { at: START_ISO, scopes: [] });
    await on(
      'getPostMetrics',
      metricsOf(await seedPostWithMetrics(host, owner, { at: START_ISO, accountId: withoutScopes })),
    );
    await on('getAccountMetrics', accountMetricsOf(withoutScopes));
    await on('getAccountMetrics', accountMetricsOf(owner.accounts.twitter));
    await on('getAccountMetrics', accountMetricsOf(await seedRealAccount(host, owner, { at: START_ISO })));
    // The refresh: not published, a network the workspace does not collect (X, paid), read just now.
    const refreshOf = (postId: string): Probe => ({
      method: 'POST',
      path: `${postsPath(owner)}/${postId}/metrics/refresh`,
    });
    await on('refreshPostMetrics', refreshOf(await draft()));
    await on(
      'refreshPostMetrics',
      refreshOf(await seedPostWithMetrics(host, owner, { at: START_ISO, platform: 'twitter' })),
    );
    await on(
      'refreshPostMetrics',
      refreshOf(await seedPostWithMetrics(host, owner, { at: START_ISO, metrics: READ_ONCE })),
    );
    await on('confirmMedia', {
      method: 'POST',
      path: `/v1/workspaces/${owner.workspaceId}/media/${await issueUpload()}/confirm`,
    });

    await on('createWebhook', {
      method: 'POST',
      path: `/v1/workspaces/${fullOfHooks.workspaceId}/webhooks`,
      apiKey: fullOfHooks.apiKey,
      headers: json,
      body: JSON.stringify({ url: 'https://receiver.example.com/26th', events: ['post.failed'] }),
    });

    // A deployment without a media bucket, then one without a secrets key: every operation, with
    // valid input, once each.
    const requests = [];
    for (const operation of operations) requests.push([operation, await validRequest(operation)] as const);
    const storage = host.deps.storage;
    host.deps.storage = makeUnconfiguredStorage();
    try {
      for (const [operation, request] of requests) await probe(operation, request);
    } finally {
      host.deps.storage = storage;
    }
    // Storage unreachable: every operation that reads it (each key-authenticated one), once each.
    const withoutStorage = [];
    for (const operation of operations)
      if (operation.auth === 'apiKey')
        withoutStorage.push([operation, await validRequest(operation)] as const);
    outage.down = true;
    try {
      for (const [operation, request] of withoutStorage) await probe(operation, request);
    } finally {
      outage.down = false;
    }
    const withoutKey = [];
    for (const operation of operations) withoutKey.push([operation, await validRequest(operation)] as const);
    const secrets = host.deps.secrets;
    host.deps.secrets = makeUnconfiguredCipher();
    try {
      for (const [operation, request] of withoutKey) await probe(operation, request);
    } finally {
      host.deps.secrets = secrets;
    }
  }, 120_000);
  afterAll(async () => {
    await host.stop();
  });

  /** "status code" pairs the served document lists for the operation. */
  const documentedPairs = (operation: Operation) =>
    Object.entries(documented[operation.id]?.responses ?? {})
      .filter(([status]) => Number(status) >= 400)
      .flatMap(([status, response]) =>
        (response.content?.['application/json'].schema.allOf?.[1]?.properties?.error?.enum ?? []).map(
          (code) => `${status} ${code}`,
        ),
      );

  it.each(operations.map((operation) => [operation.id, operation] as const))(
    '%s answers only errors its document lists, and never a 500',
    (_id, operation) => {
      const seen = [...(answered.get(operation.id) ?? [])];
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((pair) => pair.startsWith('5') && !pair.startsWith('503'))).toEqual([]);
      expect(documentedPairs(operation)).toEqual(expect.arrayContaining(seen));
    },
  );

  it.each(operations.map((operation) => [operation.id, operation] as const))(
    '%s answered every error its document lists',
    (_id, operation) => {
      const seen = answered.get(operation.id) ?? new Set<string>();
      const listed = documentedPairs(operation).filter((pair) => pair !== '500 internal_error');
      expect(listed.filter((pair) => !seen.has(pair))).toEqual([]);
    },
  );
});
