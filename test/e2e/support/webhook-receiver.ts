import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  /** The path it was POSTed to: one per registered webhook in these tests. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The bytes as they arrived, for signature checks. */
  rawBody: Buffer;
  /** performance.timeOrigin + performance.now() when the request head arrived (ms since the epoch). */
  receivedAt: number;
}

/** How the receiver answers one request to a path. */
export interface ReceiverAnswer {
  status: number;
  /** Wait this long before answering (a slow receiver). */
  delayMs?: number;
  /** Extra response headers (a redirect's Location). */
  headers?: Record<string, string>;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port><path>`: a loopback receiver, which only the local host allows. */
  url(path: string): string;
  readonly received: ReceivedWebhook[];
  /** What arrived at one path, in order. */
  at(path: string): ReceivedWebhook[];
  /** The next requests to `path` get these answers, in order (then 200 at once). */
  answer(path: string, ...answers: ReceiverAnswer[]): void;
  /** Called for every request as its head arrives (the bench's clock). */
  onRequest?: (received: ReceivedWebhook) => void;
  stop(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 (node:http), as a developer would run on their laptop: it keeps
 * every request with its raw body and answers from a per-path script.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const scripts = new Map<string, ReceiverAnswer[]>();
  const receiver: WebhookReceiver = {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path) => received.filter((request) => request.path === path),
    answer(path, ...answers) {
      scripts.set(path, [...(scripts.get(path) ?? []), ...answers]);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const receivedAt = performance.timeOrigin + performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const request = { path, headers: req.headers, rawBody: Buffer.concat(chunks), receivedAt };
      received.push(request);
      receiver.onRequest?.(request);
      const answer = scripts.get(path)?.shift() ?? { status: 200 };
      const respond = () => {
        if (!res.destroyed)
          res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end('ok');
      };
      if (answer.delayMs) setTimeout(respond, answer.delayMs);
      else respond();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return receiver;
}
