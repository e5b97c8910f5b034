// A webhook receiver for the social-publishing API (docs/webhooks.md), in Node 20+ with no
// dependencies. Run it:  WEBHOOK_SECRET=whsec_... PORT=4000 node verify-webhook.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const TOLERANCE_SECONDS = 300;

/**
 * True when `header` (the X-Webhook-Signature value) signs `rawBody` (the exact bytes received,
 * before any JSON parsing) with `secret`, at a time within 300 s of now.
 */
export function verifySignature(rawBody, header, secret, nowSeconds = Math.floor(Date.now() / 1000)) {
  const entries = String(header ?? '')
    .split(',')
    .map((entry) => entry.trim().split('='));
  const timestamps = entries.filter(([key]) => key === 't').map(([, value]) => value);
  const signatures = entries.filter(([key]) => key === 'v1').map(([, value]) => value);
  if (timestamps.length !== 1 || !/^\d+$/.test(timestamps[0]) || signatures.length === 0) return false;
  const timestamp = Number(timestamps[0]);
  if (Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS) return false; // a replay, or a bad clock
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  // Constant time: timingSafeEqual on two 32-byte buffers.
  return signatures.some(
    (hex) => /^[0-9a-f]{64}$/.test(hex) && timingSafeEqual(Buffer.from(hex, 'hex'), expected),
  );
}

/**
 * An HTTP server that verifies each delivery, hands each event to `onEvent` once, and answers
 * within the 5 s the service waits. `seen` remembers handled event ids: delivery is at least
 * once, and a redelivery carries the same id. Keep them in your database in production.
 */
export function createReceiver({ secret, onEvent, seen = new Set(), now }) {
  return createServer((request, response) => {
    if (request.method !== 'POST') return response.writeHead(405).end();
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', async () => {
      const rawBody = Buffer.concat(chunks);
      const signature = request.headers['x-webhook-signature'];
      if (!verifySignature(rawBody, signature, secret, now?.())) {
        return response.writeHead(400).end('invalid signature');
      }
      const event = JSON.parse(rawBody.toString('utf8'));
      if (seen.has(event.id)) return response.writeHead(200).end('already handled');
      try {
        await onEvent(event);
        seen.add(event.id);
        response.writeHead(200).end('ok');
      } catch {
        response.writeHead(500).end(); // not handled: the service retries it later
      }
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('Set WEBHOOK_SECRET to the secret shown at registration (whsec_...).');
  const port = Number(process.env.PORT ?? 4000);
  const onEvent = (event) => console.log(event.createdAt, event.type, event.id, JSON.stringify(event.data));
  createReceiver({ secret, onEvent }).listen(port, () => console.log(`Receiving webhooks on port ${port}`));
}
