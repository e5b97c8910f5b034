import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceEvent } from '../../../shared/domain/events.js';
import { webhookDeliveryHeaders } from '../../../shared/domain/webhooks/delivery-headers.js';
import { toDeliveredEnvelope } from '../../../shared/domain/webhooks/payloads.js';
import { newWebhookSecret, signWebhook } from '../../../shared/domain/webhooks/signature.js';

/**
 * The receivers docs/webhooks.md shows are real files (docs/examples/), run here against bodies
 * and headers made by the service's own code, so the documentation cannot drift from the service.
 */

const EXAMPLES = new URL('../../../docs/examples/', import.meta.url);
const NODE_EXAMPLE = new URL('verify-webhook.mjs', EXAMPLES);
const PYTHON_EXAMPLE = new URL('verify_webhook.py', EXAMPLES);
const DOC = new URL('../../../docs/webhooks.md', import.meta.url);

interface NodeExample {
  verifySignature(rawBody: Buffer, header: string | undefined, secret: string, nowSeconds?: number): boolean;
  createReceiver(options: {
    secret: string;
    onEvent: (event: { id: string; type: string }) => void | Promise<void>;
    seen?: Set<string>;
    now?: () => number;
  }): Server;
}

async function loadNodeExample(): Promise<NodeExample> {
  const module: unknown = await import(NODE_EXAMPLE.href);
  return module as NodeExample;
}

const NOW = 1_900_000_000;
const SECRET = newWebhookSecret();

const EVENT: ServiceEvent = {
  id: 'evt_01JD0000000000000000000000',
  type: 'post.published',
  createdAt: '2030-03-17T17:46:40.000Z',
  tenantId: 'ten_01JD0000000000000000000000',
  workspaceId: 'wks_01JD0000000000000000000000',
  data: {
    postId: 'pst_01JD0000000000000000000000',
    status: 'published',
    platform: 'linkedin',
    accountId: 'acc_01JD0000000000000000000000',
    publishedAt: '2030-03-17T17:46:40.000Z',
    platformPostId: 'urn:li:share:1',
  },
};
const BODY = JSON.stringify(toDeliveredEnvelope(EVENT));

describe('the Node receiver of docs/webhooks.md', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it('is printed in the doc verbatim', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(doc).toContain(`\`\`\`js\n${readFileSync(NODE_EXAMPLE, 'utf8')}\`\`\``);
  });

  it('accepts our signature and Stripe’s, and refuses a changed body, another secret or a stale time', async () => {
    const { verifySignature } = await loadNodeExample();
    const body = Buffer.from(BODY);
    const ours = signWebhook(SECRET, NOW, BODY);
    const stripes = Stripe.webhooks.generateTestHeaderString({
      payload: BODY,
      secret: SECRET,
      timestamp: NOW,
    });

    expect(verifySignature(body, ours, SECRET, NOW)).toBe(true);
    expect(verifySignature(body, stripes, SECRET, NOW + 300)).toBe(true);
    expect(verifySignature(Buffer.from(`${BODY} `), ours, SECRET, NOW)).toBe(false);
    expect(verifySignature(body, ours, newWebhookSecret(), NOW)).toBe(false);
    expect(verifySignature(body, ours, SECRET, NOW + 301)).toBe(false);
    expect(verifySignature(body, ours, SECRET, NOW - 301)).toBe(false);
    expect(verifySignature(body, undefined, SECRET, NOW)).toBe(false);
    expect(verifySignature(body, `t=${NOW},t=${NOW},${ours.split(',')[1]}`, SECRET, NOW)).toBe(false);
  });

  it('over HTTP: handles a delivery once, answers 200 to its redelivery, and 400 to a forgery', async () => {
    // Prepare: the receiver on loopback, fed the headers the service sends.
    const { createReceiver } = await loadNodeExample();
    const handled: string[] = [];
    server = createReceiver({
      secret: SECRET,
      onEvent: (event) => void handled.push(event.id),
      now: () => NOW,
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const deliver = (headers: Record<string, string>, body = BODY) =>
      fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers, body });
    const headers = webhookDeliveryHeaders({
      secret: SECRET,
      eventId: EVENT.id,
      rawBody: BODY,
      timestampSeconds: NOW,
      version: '0.1.0',
    });

    // Act
    const first = await deliver(headers);
    const again = await deliver(headers);
    const forged = await deliver(headers, BODY.replace('linkedin', 'twitter'));

    // Assess
    expect([first.status, again.status, forged.status]).toEqual([200, 200, 400]);
    expect(handled).toEqual([EVENT.id]);
  });

  it('over HTTP: answers 500 when handling fails, so the service retries, and handles the retry', async () => {
    const { createReceiver } = await loadNodeExample();
    let calls = 0;
    const onEvent = () => {
      calls++;
      if (calls === 1) throw new Error('database down');
    };
    server = createReceiver({ secret: SECRET, onEvent, now: () => NOW });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const headers = { 'X-Webhook-Signature': signWebhook(SECRET, NOW, BODY) };
    const deliver = () => fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers, body: BODY });

    expect((await deliver()).status).toBe(500);
    expect((await deliver()).status).toBe(200);
    expect((await deliver()).status).toBe(200);
    expect(calls).toBe(2);
  });
});

describe('the Python receiver of docs/webhooks.md', () => {
  /** Runs the example's functions in python3 on cases made here; returns what each answered. */
  function runPython(script: string, cases: unknown[]): unknown[] {
    const output = execFileSync('python3', ['-c', script], {
      cwd: new URL('.', PYTHON_EXAMPLE).pathname,
      input: JSON.stringify(cases),
      encoding: 'utf8',
    });
    return JSON.parse(output) as unknown[];
  }

  it('is printed in the doc verbatim', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(doc).toContain(`\`\`\`python\n${readFileSync(PYTHON_EXAMPLE, 'utf8')}\`\`\``);
  });

  it('accepts our signature and refuses a changed body, another secret, a stale time or a malformed header', () => {
    // Prepare
    const body = Buffer.from(BODY).toString('hex');
    const ours = signWebhook(SECRET, NOW, BODY);
    const signature = ours.split(',v1=')[1];
    const cases = [
      { body, header: ours, secret: SECRET, now: NOW },
      { body, header: `t=${NOW},v1=${'0'.repeat(64)},v1=${signature}`, secret: SECRET, now: NOW - 300 },
      { body: Buffer.from(`${BODY} `).toString('hex'), header: ours, secret: SECRET, now: NOW },
      { body, header: ours, secret: newWebhookSecret(), now: NOW },
      { body, header: ours, secret: SECRET, now: NOW + 301 },
      { body, header: `t=${NOW}`, secret: SECRET, now: NOW },
      { body, header: `t=${NOW},v1=é${signature}`, secret: SECRET, now: NOW },
      { body, header: null, secret: SECRET, now: NOW },
    ];
    const script = [
      'import json, sys',
      'from verify_webhook import verify_signature',
      'cases = json.load(sys.stdin)',
      "print(json.dumps([verify_signature(bytes.fromhex(c['body']), c['header'], c['secret'], c['now']) for c in cases]))",
    ].join('\n');

    // Act / Assess
    expect(runPython(script, cases)).toEqual([true, true, false, false, false, false, false, false]);
  });

  it('handles a delivery once, answers 200 to its redelivery, 400 to a forgery and 500 when handling fails', () => {
    const header = signWebhook(SECRET, NOW, BODY);
    const script = [
      'import json, sys',
      'from verify_webhook import handle_delivery',
      'c = json.load(sys.stdin)[0]',
      'body = c["body"].encode()',
      'seen, handled, calls = set(), [], [0]',
      'def on_event(event):',
      '    calls[0] += 1',
      '    if calls[0] == 1: raise RuntimeError("database down")',
      '    handled.append(event["id"])',
      'statuses = [handle_delivery(body, c["header"], c["secret"], seen, on_event, c["now"]) for _ in range(3)]',
      'statuses.append(handle_delivery(body + b" ", c["header"], c["secret"], seen, on_event, c["now"]))',
      'print(json.dumps([statuses, handled]))',
    ].join('\n');

    expect(runPython(script, [{ body: BODY, header, secret: SECRET, now: NOW }])).toEqual([
      [500, 200, 200, 400],
      [EVENT.id],
    ]);
  });
});
