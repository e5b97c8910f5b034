import { connect } from 'node:net';

/** One HTTP/1.1 response as it came over the wire. */
export interface RawResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/** Every response in `bytes` (several when requests were pipelined), bodies by Content-Length or chunks. */
export function parseResponses(bytes: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) throw new Error(`Not an HTTP response: ${JSON.stringify(rest.toString('latin1'))}`);
    const [statusLine = '', ...headerLines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
    if (!status) throw new Error(`Not an HTTP/1.1 status line: ${statusLine}`);
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    rest = rest.subarray(headEnd + 4);
    let body: Buffer;
    if (headers['transfer-encoding'] === 'chunked') {
      const chunks: Buffer[] = [];
      for (;;) {
        const lineEnd = rest.indexOf('\r\n');
        const size = Number.parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
        rest = rest.subarray(lineEnd + 2);
        if (size === 0) {
          rest = rest.subarray(2);
          break;
        }
        chunks.push(rest.subarray(0, size));
        rest = rest.subarray(size + 2);
      }
      body = Buffer.concat(chunks);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = rest.subarray(0, length);
      rest = rest.subarray(length);
    }
    responses.push({ status, headers, body: body.toString('utf8') });
  }
  return responses;
}

/**
 * Sends raw bytes to 127.0.0.1:port (no HTTP client in between to correct them) and returns every
 * response the server wrote before it closed the connection (for bytes that end in a refusal).
 */
export function sendRaw(port: number, bytes: Buffer | string, timeoutMs = 10_000): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    const received: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`No close within ${timeoutMs} ms; received ${Buffer.concat(received).toString('latin1')}`),
      );
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseResponses(Buffer.concat(received)));
      } catch (error) {
        reject(error);
      }
    });
  });
}
