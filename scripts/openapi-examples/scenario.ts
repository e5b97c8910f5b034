import type { IdKind } from '../../shared/domain/ids.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import type { MetricsSeeds } from './metrics-seeds.js';
import { EXAMPLE_NETWORKS } from './networks.js';
import type { Recorder } from './recorder.js';

/** What the scenario needs from the running service besides HTTP: seeding, as the tests do it. */
export interface ScenarioSeeds extends MetricsSeeds {
  /** The main tenant: a workspace with the sandbox accounts and a blocked term. */
  main: BootstrapResult;
  /** A second tenant whose workspace requires approval. */
  reviewed: BootstrapResult;
  /** An API key of an agent of `main` that may only read posts. */
  readerKey: string;
  /** An API key of an agent of `reviewed` that may write posts but not decide approvals. */
  writerKey: string;
  /** A failed delivery of a post.published event to `webhookId`, as the dispatcher leaves one. */
  seedFailedDelivery(webhookId: string): Promise<string>;
  /** Sets the main tenant's counter of a rate-limit family to its limit for the current minute. */
  exhaustRateLimit(family: 'other'): Promise<void>;
  /**
   * Appends to the main workspace's event feed the events the post's change since the last call
   * produces, as the stream's fan-out does (delivery is off while recording: nothing leaves).
   */
  emitEventsOf(postId: string): Promise<void>;
  /** A well-formed id that names nothing, with the scenario clock's time. */
  unknownId(kind: IdKind): string;
  /** An epoch-ms instant `days` after the scenario's clock, as ISO 8601 UTC. */
  daysAhead(days: number): string;
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(2040, 7),
]);
const RECEIVER = 'https://hooks.example.com/social';

/**
 * Calls every operation of the registry the way a client would: the successful call first, then
 * the errors a client author most needs to see for it. Each call names the status it must answer.
 */
export async function runScenario(api: Recorder, seeds: ScenarioSeeds): Promise<void> {
  const { main, reviewed } = seeds;
  const { connectable, unconfigured, threads, documents, mediaOnly, disconnected, paidMetrics } =
    EXAMPLE_NETWORKS;
  const ws = { workspace_id: main.workspaceId };
  const unknownWorkspace = { workspace_id: seeds.unknownId('workspace') };
  const notAnId = 'not-an-id';

  // Workspaces
  await api.succeed('listWorkspaces');
  await api.record('listWorkspaces', { expect: 400, code: 'INVALID_REQUEST', query: '?limit=0' });
  await api.record('listWorkspaces', {
    expect: 401,
    code: 'unauthorized',
    apiKey: `smcp_${'0'.repeat(64)}`,
  });

  // Networks
  await api.succeed('listNetworks');
  await api.record('listNetworks', { expect: 401, code: 'unauthorized', apiKey: `smcp_${'0'.repeat(64)}` });

  // Accounts
  await api.succeed('listAccounts', { params: ws, query: '?limit=2' });
  await api.record('listAccounts', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: ws,
    query: '?platform=myspace',
  });
  await api.record('listAccounts', { expect: 404, code: 'not_found', params: unknownWorkspace });
  await api.succeed('getAccount', { params: { ...ws, account_id: main.accounts[documents] } });
  await api.record('getAccount', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...ws, account_id: notAnId },
  });
  await api.record('getAccount', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, account_id: seeds.unknownId('account') },
  });
  await api.succeed('connectAccount', {
    params: ws,
    body: { platform: connectable, redirectUri: 'https://app.example.com/connected' },
  });
  await api.record('connectAccount', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: ws,
    body: { platform: connectable, redirectUri: 'https://evil.example.net/connected' },
  });
  await api.record('connectAccount', {
    expect: 409,
    code: 'network_not_configured',
    params: ws,
    body: { platform: unconfigured },
  });
  await api.record('oauthCallback', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { platform: connectable },
    apiKey: null,
  });
  await api.succeed('disconnectAccount', { params: { ...ws, account_id: main.accounts[disconnected] } });
  await api.record('disconnectAccount', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, account_id: seeds.unknownId('account') },
  });
  await api.record('disconnectAccount', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...ws, account_id: notAnId },
  });

  // Posts
  const scheduled = {
    platform: documents,
    accountId: main.accounts[documents],
    status: 'scheduled',
    postType: 'text',
    content: 'Our spring collection launches next week. Sign up for early access.',
    firstComment: { text: 'Early access opens Monday at 9:00 CET.' },
    // Sent with an offset, as a client in Paris would; answered in UTC.
    scheduledAt: withOffset(seeds.daysAhead(7), 1),
  };
  const created = await api.succeed<{ id: string }>('createPost', {
    params: ws,
    body: scheduled,
    headers: { 'Idempotency-Key': 'launch-announcement-1' },
  });
  await seeds.emitEventsOf(created.id);
  await api.record('createPost', {
    expect: 422,
    code: 'VALIDATION_FAILED',
    params: ws,
    body: {
      platform: threads,
      accountId: main.accounts[threads],
      status: 'publish',
      postType: 'text',
      content: `${'A thread-worthy thought. '.repeat(12)}`,
    },
  });
  await api.record('createPost', {
    expect: 422,
    code: 'idempotency_key_reused',
    params: ws,
    body: { ...scheduled, content: 'Another text under the same key.' },
    headers: { 'Idempotency-Key': 'launch-announcement-1' },
  });
  await api.record('createPost', {
    expect: 403,
    code: 'policy_violation',
    params: ws,
    body: { ...scheduled, content: 'Guaranteed returns on every order!' },
  });
  await api.record('createPost', {
    expect: 403,
    code: 'permission_denied',
    params: ws,
    apiKey: seeds.readerKey,
    body: scheduled,
  });
  await api.record('createPost', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: ws,
    body: { ...scheduled, scheduledAt: 'next tuesday', visibility: 'public' },
  });
  await api.record('createPost', {
    expect: 404,
    code: 'not_found',
    params: unknownWorkspace,
    body: scheduled,
  });
  await api.record('createPost', {
    expect: 415,
    code: 'unsupported_media_type',
    params: ws,
    body: 'content=hello',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });

  await api.succeed('validatePost', {
    params: ws,
    body: {
      platform: threads,
      accountId: main.accounts[threads],
      status: 'publish',
      postType: 'text',
      content: `${'Too long for one post. '.repeat(14)}`,
    },
  });
  await api.record('validatePost', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: ws,
    body: { platform: threads, status: 'publish' },
  });

  const post = { ...ws, post_id: created.id };
  await api.succeed('getPost', { params: post });
  await api.record('getPost', { expect: 400, code: 'INVALID_REQUEST', params: { ...ws, post_id: notAnId } });
  await api.record('getPost', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, post_id: seeds.unknownId('post') },
  });

  await api.send('createPost', {
    params: ws,
    body: {
      platform: threads,
      accountId: main.accounts[threads],
      status: 'draft',
      postType: 'text',
      content: 'Draft: behind the scenes at the studio.',
    },
  });
  await api.succeed('listPosts', { params: ws, query: '?limit=1' });
  await api.record('listPosts', { expect: 400, code: 'INVALID_REQUEST', params: ws, query: '?status=sent' });
  await api.record('listPosts', { expect: 404, code: 'not_found', params: unknownWorkspace });

  await api.succeed('updatePost', {
    params: post,
    body: {
      content: 'Our spring collection launches next week. Early access opens Monday.',
      scheduledAt: seeds.daysAhead(8),
    },
  });
  await seeds.emitEventsOf(created.id);
  await api.record('updatePost', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: post,
    body: { status: 'published' },
  });
  await api.record('updatePost', {
    expect: 422,
    code: 'VALIDATION_FAILED',
    params: post,
    // One character over the documents network's text limit (3,000 today), so its error quotes the limit.
    body: { content: 'a'.repeat(3001) },
  });
  await api.record('updatePost', {
    expect: 403,
    code: 'policy_violation',
    params: post,
    body: { content: 'Guaranteed returns, this spring only.' },
  });
  await api.record('updatePost', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, post_id: seeds.unknownId('post') },
    body: { content: 'Hello' },
  });

  await api.succeed('cancelPost', { params: post });
  await seeds.emitEventsOf(created.id);
  await api.record('cancelPost', { expect: 409, code: 'conflict', params: post });
  await api.record('cancelPost', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, post_id: seeds.unknownId('post') },
  });
  await api.record('cancelPost', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...ws, post_id: notAnId },
  });
  await api.record('updatePost', {
    expect: 409,
    code: 'conflict',
    params: post,
    body: { content: 'Back from the dead?' },
  });

  // Approvals, in the workspace that requires them.
  const reviewedWs = { workspace_id: reviewed.workspaceId };
  const pendingBody = {
    platform: mediaOnly,
    accountId: reviewed.accounts[mediaOnly],
    status: 'publish',
    postType: 'image',
    content: 'New in store: the linen collection.',
    media: [{ url: 'https://cdn.example.com/linen.jpg', type: 'image', alt: 'Linen shirts on a rail' }],
  };
  const asReviewer = { apiKey: reviewed.apiKey };
  const toApprove = await api.send('createPost', { params: reviewedWs, body: pendingBody, ...asReviewer });
  const toReject = await api.send('createPost', { params: reviewedWs, body: pendingBody, ...asReviewer });
  const approve = { ...reviewedWs, post_id: idOf(toApprove.body) };
  const reject = { ...reviewedWs, post_id: idOf(toReject.body) };
  await api.record('approvePost', {
    expect: 403,
    code: 'permission_denied',
    params: approve,
    apiKey: seeds.writerKey,
  });
  await api.succeed('approvePost', { params: approve, ...asReviewer });
  await api.record('approvePost', { expect: 409, code: 'conflict', params: approve, ...asReviewer });
  await api.record('approvePost', {
    expect: 404,
    code: 'not_found',
    params: { ...reviewedWs, post_id: seeds.unknownId('post') },
    ...asReviewer,
  });
  await api.record('approvePost', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...reviewedWs, post_id: notAnId },
    ...asReviewer,
  });
  await api.succeed('rejectPost', {
    params: reject,
    body: { reason: 'The photo shows last season’s colours.' },
    ...asReviewer,
  });
  await api.record('rejectPost', {
    expect: 409,
    code: 'conflict',
    params: reject,
    body: { reason: 'Again.' },
    ...asReviewer,
  });
  await api.record('rejectPost', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: reject,
    body: { reason: '' },
    ...asReviewer,
  });
  await api.record('rejectPost', {
    expect: 404,
    code: 'not_found',
    params: { ...reviewedWs, post_id: seeds.unknownId('post') },
    body: { reason: 'Off brand.' },
    ...asReviewer,
  });

  // Media
  const upload = await api.succeed<{ mediaId: string; uploadUrl: string; headers: Record<string, string> }>(
    'createUploadUrl',
    {
      params: ws,
      body: { filename: 'spring-lookbook.png', mimeType: 'image/png', sizeBytes: PNG.length },
    },
  );
  await api.record('createUploadUrl', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: ws,
    body: { filename: 'notes.txt', mimeType: 'text/plain', sizeBytes: 12 },
  });
  const media = { ...ws, media_id: upload.mediaId };
  await api.record('confirmMedia', { expect: 409, code: 'upload_incomplete', params: media });
  // The client's PUT to the presigned URL, with the headers it was issued for.
  const put = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: PNG });
  if (put.status !== 200) throw new Error(`The upload answered ${put.status}: ${await put.text()}`);
  await api.succeed('confirmMedia', { params: media });
  await api.record('confirmMedia', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, media_id: seeds.unknownId('media') },
  });
  await api.record('confirmMedia', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...ws, media_id: notAnId },
  });
  const imported = await api.succeed<{ mediaId: string }>('importMedia', {
    params: ws,
    body: { url: 'https://cdn.example.com/images/spring-hero.jpg', type: 'image' },
  });
  await api.record('importMedia', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: ws,
    body: { url: 'http://cdn.example.com/images/spring-hero.jpg', type: 'image' },
  });
  await api.succeed('getMedia', { params: media });
  await api.record('getMedia', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, media_id: seeds.unknownId('media') },
  });
  await api.record('getMedia', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...ws, media_id: notAnId },
  });
  await api.succeed('listMedia', { params: ws, query: '?limit=1' });
  await api.record('listMedia', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: ws,
    query: '?cursor=bm90LW91cnM',
  });
  await api.succeed('deleteMedia', { params: media });
  await api.record('deleteMedia', { expect: 404, code: 'not_found', params: media });
  await api.record('deleteMedia', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...ws, media_id: notAnId },
  });
  await api.succeed('deleteMediaShort', { params: { media_id: imported.mediaId } });
  await api.record('deleteMediaShort', {
    expect: 404,
    code: 'not_found',
    params: { media_id: imported.mediaId },
  });
  await api.record('deleteMediaShort', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { media_id: notAnId },
  });

  // Webhooks
  const hookBody = {
    url: RECEIVER,
    events: ['post.published', 'post.failed'],
    description: 'CRM sync',
  };
  const hook = await api.succeed<{ id: string }>('createWebhook', { params: ws, body: hookBody });
  await api.record('createWebhook', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: ws,
    body: { url: 'http://10.0.0.7/hooks', events: ['post.sent'] },
  });
  for (let count = 0; count < 25; count++) {
    await api.send('createWebhook', { params: reviewedWs, body: hookBody, ...asReviewer });
  }
  await api.record('createWebhook', {
    expect: 409,
    code: 'conflict',
    params: reviewedWs,
    body: hookBody,
    ...asReviewer,
  });
  const other = await api.send('createWebhook', {
    params: ws,
    body: { url: RECEIVER, events: ['post.queued'] },
  });
  await api.succeed('listWebhooks', { params: ws, query: '?limit=1' });
  await api.record('listWebhooks', { expect: 400, code: 'INVALID_REQUEST', params: ws, query: '?limit=500' });
  const webhook = { ...ws, webhook_id: hook.id };
  await api.succeed('getWebhook', { params: webhook });
  await api.record('getWebhook', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, webhook_id: seeds.unknownId('webhook') },
  });
  await api.record('getWebhook', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...ws, webhook_id: notAnId },
  });

  const deliveryId = await seeds.seedFailedDelivery(hook.id);
  await api.succeed('listWebhookDeliveries', { params: webhook, query: '?status=failed' });
  await api.record('listWebhookDeliveries', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: webhook,
    query: '?status=lost',
  });
  await api.record('listWebhookDeliveries', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, webhook_id: seeds.unknownId('webhook') },
  });
  await api.succeed('listWebhookDeliveriesShort', { params: { webhook_id: hook.id }, query: '?limit=10' });
  await api.record('listWebhookDeliveriesShort', {
    expect: 404,
    code: 'not_found',
    params: { webhook_id: seeds.unknownId('webhook') },
  });
  await api.record('listWebhookDeliveriesShort', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { webhook_id: notAnId },
  });
  await api.succeed('retryWebhookDelivery', { params: { ...webhook, delivery_id: deliveryId } });
  await api.record('retryWebhookDelivery', {
    expect: 404,
    code: 'not_found',
    params: { ...webhook, delivery_id: seeds.unknownId('webhookDelivery') },
  });
  await api.record('retryWebhookDelivery', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...webhook, delivery_id: notAnId },
  });
  await api.succeed('testWebhook', { params: webhook });
  await api.record('testWebhook', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, webhook_id: seeds.unknownId('webhook') },
  });
  await api.record('testWebhook', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...ws, webhook_id: notAnId },
  });

  await api.succeed('deleteWebhook', { params: webhook });
  await api.record('deleteWebhook', { expect: 404, code: 'not_found', params: webhook });
  await api.record('deleteWebhook', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...ws, webhook_id: notAnId },
  });
  await api.succeed('deleteWebhookShort', { params: { webhook_id: idOf(other.body) } });
  await api.record('deleteWebhookShort', {
    expect: 404,
    code: 'not_found',
    params: { webhook_id: idOf(other.body) },
  });
  await api.record('deleteWebhookShort', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { webhook_id: notAnId },
  });

  // Events
  await api.succeed('listEvents', { params: ws, query: '?limit=2' });
  await api.record('listEvents', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: ws,
    query: '?types=post.sent',
  });
  await api.record('listEvents', { expect: 404, code: 'not_found', params: unknownWorkspace });

  // A workspace that does not exist (or that the key cannot see), for the operations above without one.
  const missing: [string, unknown][] = [
    ['connectAccount', { platform: connectable }],
    ['validatePost', scheduled],
    ['createUploadUrl', { filename: 'a.png', mimeType: 'image/png', sizeBytes: 10 }],
    ['importMedia', { url: 'https://cdn.example.com/a.png', type: 'image' }],
    ['listMedia', undefined],
    ['createWebhook', hookBody],
    ['listWebhooks', undefined],
  ];
  for (const [operationId, body] of missing) {
    await api.record(operationId, { expect: 404, code: 'not_found', params: unknownWorkspace, body });
  }

  // Metrics: what the collection and the daily sweep stored, and the 409s of nothing to show.
  const measured = { ...ws, post_id: await seeds.seedMetricsPost('read') };
  await api.succeed('getPostMetrics', { params: measured });
  await api.record('getPostMetrics', { expect: 409, code: 'post_not_published', params: post });
  await api.record('getPostMetrics', {
    expect: 409,
    code: 'metrics_not_collected_yet',
    params: { ...ws, post_id: await seeds.seedMetricsPost('unread') },
  });
  await api.record('getPostMetrics', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...ws, post_id: notAnId },
  });
  await api.record('getPostMetrics', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, post_id: seeds.unknownId('post') },
  });
  await api.succeed('getAccountMetrics', {
    params: { ...ws, account_id: await seeds.seedMetricsAccount('read') },
  });
  await api.record('getAccountMetrics', {
    expect: 409,
    code: 'metrics_missing_scopes',
    params: { ...ws, account_id: await seeds.seedMetricsAccount('missing_scopes') },
  });
  await api.record('getAccountMetrics', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...ws, account_id: notAnId },
  });
  await api.record('getAccountMetrics', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, account_id: seeds.unknownId('account') },
  });
  await api.record('getAccountMetrics', {
    expect: 409,
    code: 'metrics_unavailable',
    params: { ...ws, account_id: main.accounts[paidMetrics] },
  });

  // A refresh brings the read post's next collection forward (after its reads' examples above).
  await api.succeed('refreshPostMetrics', { params: measured });
  await api.record('refreshPostMetrics', { expect: 409, code: 'post_not_published', params: post });
  await api.record('refreshPostMetrics', {
    expect: 400,
    code: 'INVALID_REQUEST',
    params: { ...ws, post_id: notAnId },
  });
  await api.record('refreshPostMetrics', {
    expect: 404,
    code: 'not_found',
    params: { ...ws, post_id: seeds.unknownId('post') },
  });

  // Last: the limit, once it is spent, answers 429 to every call of its family.
  await seeds.exhaustRateLimit('other');
  await api.record('listWorkspaces', { expect: 429, code: 'rate_limited' });
}

/** The same instant written in a zone `hours` ahead of UTC: 12:00Z is 13:00+01:00. */
function withOffset(utc: string, hours: number): string {
  const local = new Date(Date.parse(utc) + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '');
  return `${local}+${String(hours).padStart(2, '0')}:00`;
}

function idOf(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'string')
    return body.id;
  throw new Error(`No id in ${JSON.stringify(body)}.`);
}
