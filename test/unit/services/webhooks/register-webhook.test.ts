import { describe, expect, it } from 'vitest';
import { ConflictError, InvalidRequestError } from '../../../../shared/domain/errors.js';
import { WEBHOOK_SECRET_PATTERN } from '../../../../shared/domain/webhooks/signature.js';
import {
  MAX_WEBHOOKS_PER_WORKSPACE,
  makeRegisterWebhook,
} from '../../../../shared/services/webhooks/register-webhook.js';
import { at, TENANT_ID, WORKSPACE_ID } from '../../support/service-world.js';
import { aStoredWebhook, aWebhookWorld } from './webhook-world.js';

const input = { url: 'https://receiver.example.com/hook', events: ['post.published', 'post.failed'] };

describe('register a webhook', () => {
  it('stores the webhook with its secret encrypted for it alone, and answers the secret once', async () => {
    // Prepare
    const world = aWebhookWorld();

    // Act
    const { webhook, secret } = await makeRegisterWebhook(world)(TENANT_ID, WORKSPACE_ID, {
      ...input,
      description: 'CRM sync',
    });

    // Assess
    expect(secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(webhook).toEqual({
      webhookId: expect.stringMatching(/^whk_/),
      tenantId: TENANT_ID,
      workspaceId: WORKSPACE_ID,
      url: input.url,
      events: input.events,
      description: 'CRM sync',
      createdAt: at(0),
      consecutiveFailures: 0,
    });
    const [stored] = world.webhooks.allWebhookRecords();
    expect(stored).toEqual({ ...webhook, secretCiphertext: expect.any(String) });
    expect(JSON.stringify(stored)).not.toContain(secret);
    const context = {
      tenantId: TENANT_ID,
      workspaceId: WORKSPACE_ID,
      purpose: 'webhook-signing-secret' as const,
      recordId: webhook.webhookId,
    };
    expect(world.secrets.encryptedFor).toEqual([context]);
    await expect(world.secrets.decrypt(stored?.secretCiphertext ?? '', context)).resolves.toBe(secret);
  });

  it('gives every webhook its own secret', async () => {
    // Prepare
    const world = aWebhookWorld();
    const register = makeRegisterWebhook(world);

    // Act
    const first = await register(TENANT_ID, WORKSPACE_ID, input);
    const second = await register(TENANT_ID, WORKSPACE_ID, input);

    // Assess
    expect(first.secret).not.toBe(second.secret);
    expect(first.webhook.webhookId).not.toBe(second.webhook.webhookId);
  });

  it.each([
    ['plain HTTP', 'http://receiver.example.com/hook'],
    ['a private address', 'https://10.0.0.7/hook'],
    ['link-local (cloud metadata)', 'https://169.254.169.254/latest'],
    ['loopback over HTTPS', 'https://127.0.0.1:8443/hook'],
    ['loopback over HTTP where it is not allowed', 'http://127.0.0.1:4000/hook'],
    ['localhost where it is not allowed', 'http://localhost:4000/hook'],
    ['a privileged port', 'https://receiver.example.com:22/hook'],
    ['not a URL', 'receiver.example.com/hook'],
  ])('refuses %s with 400 on url, and stores nothing', async (_case, url) => {
    // Prepare
    const world = aWebhookWorld();

    // Act
    const error = await makeRegisterWebhook(world)(TENANT_ID, WORKSPACE_ID, { ...input, url }).catch(
      (e: unknown) => e,
    );

    // Assess
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).details).toEqual({ url: [expect.any(String)] });
    expect(world.webhooks.allWebhookRecords()).toEqual([]);
    expect(world.secrets.encryptedFor).toEqual([]);
  });

  it.each(['http://127.0.0.1:4000/hook', 'http://localhost:4000/hook'])(
    'accepts the loopback receiver %s where the host allows it',
    async (url) => {
      // Prepare
      const world = aWebhookWorld({ allowLoopbackHttp: true });

      // Act
      const { webhook } = await makeRegisterWebhook(world)(TENANT_ID, WORKSPACE_ID, { ...input, url });

      // Assess
      expect(webhook.url).toBe(url);
    },
  );

  it('still refuses private addresses and HTTPS to loopback where loopback HTTP is allowed', async () => {
    // Prepare
    const register = makeRegisterWebhook(aWebhookWorld({ allowLoopbackHttp: true }));

    // Act
    const refused = await Promise.all(
      ['http://10.0.0.7/hook', 'https://127.0.0.1:8443/hook', 'http://[::1]:4000/hook'].map((url) =>
        register(TENANT_ID, WORKSPACE_ID, { ...input, url }).catch((e: unknown) => e),
      ),
    );

    // Assess
    for (const error of refused) expect(error).toBeInstanceOf(InvalidRequestError);
  });

  it(`refuses the ${MAX_WEBHOOKS_PER_WORKSPACE + 1}th webhook of a workspace with 409, and another workspace still has room`, async () => {
    // Prepare
    const world = aWebhookWorld();
    for (let i = 0; i < MAX_WEBHOOKS_PER_WORKSPACE; i++) await aStoredWebhook(world);
    const register = makeRegisterWebhook(world);

    // Act
    const error = await register(TENANT_ID, WORKSPACE_ID, input).catch((e: unknown) => e);
    const elsewhere = await register(TENANT_ID, 'wks_01JD0000000000000000000002', input);

    // Assess
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).status).toBe(409);
    expect((error as ConflictError).message).toContain(String(MAX_WEBHOOKS_PER_WORKSPACE));
    expect(world.webhooks.allWebhookRecords()).toHaveLength(MAX_WEBHOOKS_PER_WORKSPACE + 1);
    expect(elsewhere.webhook.workspaceId).toBe('wks_01JD0000000000000000000002');
  });
});
