import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** Runs `write` after `ms` (an answer held back past a client's patience), unless stopped first. */
  later(ms: number, write: () => void): void;
  /** Drops held answers and open connections, then closes. */
  stop(): Promise<void>;
}

/**
 * A fake's HTTP server on loopback (never reachable from off the machine). `answer` handles each
 * request; when it throws, `onError` answers for it (the network's own 500 shape).
 */
export async function startLoopbackServer(
  answer: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  onError: (response: ServerResponse) => void,
  port = 0,
): Promise<LoopbackServer> {
  const held = new Set<NodeJS.Timeout>();
  const server = createServer((request, response) => {
    answer(request, response).catch(() => onError(response));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    later(ms, write) {
      const timer = setTimeout(() => {
        held.delete(timer);
        write();
      }, ms);
      held.add(timer);
    },
    async stop() {
      for (const timer of held) clearTimeout(timer);
      held.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
