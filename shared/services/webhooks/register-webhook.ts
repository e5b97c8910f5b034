import { ConflictError, InvalidRequestError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { webhookUrlProblem } from '../../domain/webhooks/receiver-url.js';
import { newWebhookSecret } from '../../domain/webhooks/signature.js';
import type { Clock } from '../../ports/clock.js';
import type { SecretCipher } from '../../ports/secret-cipher.js';
import {
  type Webhook,
  WebhookLimitReached,
  type WebhookRecord,
  type WebhookStore,
} from '../../ports/webhook-store.js';

/** At most this many webhooks per workspace (docs/api-decisions.md#webhooks). */
export const MAX_WEBHOOKS_PER_WORKSPACE = 25;

export interface RegisterWebhookDeps {
  webhooks: WebhookStore;
  secrets: SecretCipher;
  clock: Clock;
  /** Loopback HTTP receivers: the local host only (ServiceDeps.webhookReceivers). */
  webhookReceivers: { allowLoopbackHttp: boolean };
  /** A seam for tests; the system's CSPRNG otherwise. */
  newSecret?: () => string;
}

export interface RegisterWebhookInput {
  url: string;
  /** Distinct event names, checked by the request schema. */
  events: string[];
  description?: string;
}

/** The new webhook, and its secret in plaintext: for the create response only, never stored so. */
export interface RegisteredWebhook {
  webhook: Webhook;
  secret: string;
}

export function makeRegisterWebhook(deps: RegisterWebhookDeps) {
  const newSecret = deps.newSecret ?? newWebhookSecret;

  /**
   * Register a webhook:
   * 1. the URL rule (HTTPS, public host, receiver port; loopback HTTP only where allowed): 400 on `url`;
   * 2. a new id and a new secret, the secret encrypted bound to (tenant, workspace, webhook);
   * 3. store it, with the workspace's count, in one transaction: 409 past the limit;
   * 4. answer the secret once; only its ciphertext is kept.
   */
  return async function registerWebhook(
    tenantId: string,
    workspaceId: string,
    input: RegisterWebhookInput,
  ): Promise<RegisteredWebhook> {
    const problem = webhookUrlProblem(input.url, deps.webhookReceivers);
    if (problem) throw new InvalidRequestError('The webhook URL is refused.', { url: [problem] });

    const now = deps.clock.now();
    const webhookId = newId('webhook', now);
    const secret = newSecret();
    const secretCiphertext = await deps.secrets.encrypt(secret, {
      tenantId,
      workspaceId,
      purpose: 'webhook-signing-secret',
      recordId: webhookId,
    });
    const webhook: Webhook = {
      webhookId,
      tenantId,
      workspaceId,
      url: input.url,
      events: input.events,
      ...(input.description !== undefined && { description: input.description }),
      createdAt: new Date(now).toISOString(),
      consecutiveFailures: 0,
    };
    const record: WebhookRecord = { ...webhook, secretCiphertext };
    try {
      await deps.webhooks.createWebhook(record, MAX_WEBHOOKS_PER_WORKSPACE);
    } catch (error) {
      if (!(error instanceof WebhookLimitReached)) throw error;
      throw new ConflictError(
        `The workspace already has ${error.limit} webhooks, the most it may have. Delete one to add another.`,
      );
    }
    return { webhook, secret };
  };
}
