import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** One scripted answer: a status with a JSON body and headers, or 'hang' (never answer: a time-out). */
export type StubAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang';

/**
 * A loopback HTTP server answering from a script, one entry per request, recording what it got:
 * the client's retries are seen as the server sees them.
 */
export async function startStubServer() {
  const seen: SeenRequest[] = [];
  let script: StubAnswer[] = [];
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = script.shift() ?? {
        status: 500,
        body: { error: 'internal_error', message: 'Unscripted.' },
      };
      if (answer === 'hang') {
        hanging.push(response);
        return;
      }
      response.writeHead(answer.status, {
        'Content-Type': 'application/json',
        'X-Request-Id': `req_${seen.length}`,
        ...answer.headers,
      });
      response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    /** The answers to the next requests, in order. */
    answer(...answers: StubAnswer[]) {
      script = [...answers];
      seen.length = 0;
    },
    async stop() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Sleep and jitter the test controls: records every delay and returns at once. */
export function recordingTiming(random = 0.5) {
  const sleeps: number[] = [];
  return {
    sleeps,
    timing: {
      sleep: async (ms: number) => {
        sleeps.push(ms);
      },
      random: () => random,
      now: () => Date.UTC(2030, 0, 1),
    },
  };
}
