import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../shared/http/middlewares/body-size-limit.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/** A JSON body of about `bytes` bytes. */
const bodyOf = (bytes: number) => JSON.stringify({ content: 'x'.repeat(bytes) });

describe('one body limit (1 MiB), one 413 message, however large the body', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  const post = (body: string) =>
    host.call(`/v1/workspaces/${tenant.workspaceId}/posts`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'Content-Type': 'application/json' },
      body,
    });

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Body limit' });
  });
  afterAll(async () => {
    await host.stop();
  });

  it('is 1 MiB, as documented', () => {
    expect(MAX_BODY_BYTES).toBe(1_048_576);
  });

  it('a body just over 1 MiB (refused by the handler) and one over 10 MiB (refused by the host) say the same', async () => {
    // Act
    const overOneMiB = await post(bodyOf(MAX_BODY_BYTES + 10));
    const overTenMiB = await post(bodyOf(10 * 1024 * 1024 + 10));

    // Assess
    const handlerSays = await expectEnvelope(overOneMiB, 413, 'payload_too_large');
    const hostSays = await expectEnvelope(overTenMiB, 413, 'payload_too_large');
    expect(handlerSays.message).toMatch(/\b1048576 bytes\b/);
    expect(hostSays.message).toBe(handlerSays.message);
  });
});
