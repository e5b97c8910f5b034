import { type ServiceEvent, stableEventId } from '../../../shared/domain/events.js';
import { newId } from '../../../shared/domain/ids.js';
import { newWebhookSecret } from '../../../shared/domain/webhooks/signature.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { WebhookPost, WebhookSender, WebhookSendOutcome } from '../../../shared/ports/webhook-sender.js';
import type { WebhookRecord } from '../../../shared/ports/webhook-store.js';
import type { DispatchDeps } from '../../../shared/services/webhooks/dispatch-deps.js';
import type { WebhookDispatchMessage } from '../../../shared/services/webhooks/dispatch-message.js';
import { makeMemoryLogger, makeMemoryMetrics } from '../../support/memory-observability.js';
import { InMemorySecretCipher } from '../support/in-memory-secret-cipher.js';
import { InMemoryWebhookStore } from '../support/in-memory-webhook-store.js';
import { RecordingQueue } from '../support/recording-queues.js';

export const WEBHOOK_NOW = Date.parse('2030-01-01T12:00:00.000Z');
export const TENANT = 'ten_01JD0000000000000000000000';
export const OTHER_TENANT = 'ten_01JD0000000000000000000001';
export const WORKSPACE = 'wks_01JD0000000000000000000000';
export const OTHER_WORKSPACE = 'wks_01JD0000000000000000000001';
export const VERSION = '1.2.3';
/** The real sender's limit, which the fake receiver imitates. */
export const TIMEOUT_MS = 5_000;

/** How the fake receiver answers one POST. */
export type ReceiverAnswer =
  /** Answers this status after `tookMs` (default 20 ms) of the injected clock. */
  | { status: number; tookMs?: number }
  /** Takes this long: past the 5 s limit, the sender gives up at 5 s. */
  | { slowMs: number }
  | { refused: string }
  | { unreachable: string }
  /** Does not answer until `release()`: a receiver that holds its connection. */
  | { hang: true };

/**
 * A WebhookSender with scripted answers (then 200), per URL, on the world's clock: an answer that
 * takes longer than the 5 s limit is cut at 5 s and reported `timed_out`, as the real sender does.
 * Every request is kept, its body as text.
 */
export class FakeReceiver {
  readonly requests: (WebhookPost & { text: string; at: number })[] = [];
  private readonly scripts = new Map<string, ReceiverAnswer[]>();
  private releases: (() => void)[] = [];

  constructor(private readonly clock: ReturnType<typeof fixedClock>) {}

  /** The next POSTs to `url` get these answers, in order. */
  answer(url: string, ...answers: ReceiverAnswer[]): this {
    this.scripts.set(url, [...(this.scripts.get(url) ?? []), ...answers]);
    return this;
  }

  /** Lets every hanging request answer 200. */
  release(): void {
    for (const release of this.releases.splice(0)) release();
  }

  requestsTo(url: string) {
    return this.requests.filter((request) => request.url === url);
  }

  readonly send: WebhookSender = async (post) => {
    this.requests.push({ ...post, text: Buffer.from(post.body).toString('utf8'), at: this.clock.now() });
    const answer = this.scripts.get(post.url)?.shift() ?? { status: 200 };
    if ('hang' in answer) {
      await new Promise<void>((resolve) => this.releases.push(resolve));
      return { kind: 'answered', status: 200 };
    }
    if ('refused' in answer) return { kind: 'refused', reason: answer.refused };
    if ('unreachable' in answer) return { kind: 'unreachable', reason: answer.unreachable };
    if ('slowMs' in answer) {
      this.clock.advance(Math.min(answer.slowMs, TIMEOUT_MS));
      if (answer.slowMs > TIMEOUT_MS) return { kind: 'timed_out', timeoutMs: TIMEOUT_MS };
      return { kind: 'answered', status: 200 } satisfies WebhookSendOutcome;
    }
    this.clock.advance(answer.tookMs ?? 20);
    return { kind: 'answered', status: answer.status };
  };
}

/**
 * Everything the fan-out and the dispatcher run on, in memory: a fixed clock, the Map-backed
 * webhook store, a cipher whose ciphertexts decrypt only under their own context, a recording
 * webhook-delivery queue, the fake receiver, middle jitter.
 */
export function aWebhookWorld() {
  const clock = fixedClock(WEBHOOK_NOW);
  const webhooks = new InMemoryWebhookStore(clock);
  const secrets = new InMemorySecretCipher();
  const webhookQueue = new RecordingQueue<WebhookDispatchMessage>();
  const receiver = new FakeReceiver(clock);
  const logger = makeMemoryLogger();
  const metrics = makeMemoryMetrics();
  const deps = {
    webhooks,
    secrets,
    webhookQueue,
    sendWebhook: receiver.send,
    clock,
    logger,
    metrics,
    version: VERSION,
    random: () => 0.5,
  } satisfies DispatchDeps;

  /** Registers a webhook as the API does: its secret encrypted under its own context. */
  const register = async (
    options: { url?: string; events?: string[]; tenantId?: string; workspaceId?: string } = {},
  ) => {
    const secret = newWebhookSecret();
    const webhookId = newId('webhook', clock.now());
    const tenantId = options.tenantId ?? TENANT;
    const workspaceId = options.workspaceId ?? WORKSPACE;
    const record: WebhookRecord = {
      webhookId,
      tenantId,
      workspaceId,
      url: options.url ?? `https://receiver.example/${webhookId}`,
      events: options.events ?? ['post.published'],
      createdAt: new Date(clock.now()).toISOString(),
      consecutiveFailures: 0,
      secretCiphertext: await secrets.encrypt(secret, {
        tenantId,
        workspaceId,
        purpose: 'webhook-signing-secret',
        recordId: webhookId,
      }),
    };
    await webhooks.createWebhook(record, 25);
    return { webhook: record, secret };
  };

  /**
   * Plays SQS: takes the oldest message sent and not yet handled, lets its delay pass on the clock,
   * and hands it to `handle`. Returns false when none is left.
   */
  let handled = 0;
  const deliverNext = async (handle: (message: WebhookDispatchMessage) => Promise<unknown>) => {
    const next = webhookQueue.sent[handled];
    if (!next) return false;
    handled += 1;
    clock.advance((next.delaySeconds ?? 0) * 1000);
    await handle(next.message);
    return true;
  };
  /** Delivers until the queue is empty (at most `limit` messages, against a runaway loop). */
  const drain = async (handle: (message: WebhookDispatchMessage) => Promise<unknown>, limit = 1000) => {
    let count = 0;
    while (count < limit && (await deliverNext(handle))) count += 1;
    return count;
  };

  return { ...deps, clock, receiver, logger, metrics, register, deliverNext, drain };
}

export type WebhookWorld = ReturnType<typeof aWebhookWorld>;

/** A post.published event of the world's workspace (or another), valid against its schema. */
export function aPublishedEvent(overrides: Partial<ServiceEvent> = {}, atMs = WEBHOOK_NOW): ServiceEvent {
  const postId = newId('post', atMs);
  const createdAt = new Date(atMs).toISOString();
  return {
    id: stableEventId(atMs, postId, '2', 'post.published'),
    type: 'post.published',
    createdAt,
    tenantId: TENANT,
    workspaceId: WORKSPACE,
    data: {
      postId,
      status: 'published',
      platform: 'twitter',
      accountId: 'acc_01JD0000000000000000000000',
      platformPostId: '1234567890123456789',
      platformPostUrl: 'https://x.com/sandbox/status/1234567890123456789',
      publishedAt: createdAt,
    },
    ...overrides,
  };
}
