import type { IncomingMessage } from 'node:http';
import type { Refusal } from './raw-refusal.js';

/** Why a body was not read to its end: the refusal the request is answered with. */
export class BodyRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.envelope.message);
    this.name = 'BodyRefused';
  }
}

export interface BodyReading {
  /** The whole body, or a BodyRefused (or the request's own error when the caller went away). */
  body: Promise<Buffer>;
  /**
   * Ends the reading with this refusal: the server's parser gave up on the connection (an invalid
   * chunk, Node's own request time-out), so the body's `end` will never come.
   */
  refuse(refusal: Refusal): void;
}

export interface ReadBodyLimits {
  /** Past this many bytes the reading stops with `tooLarge`. */
  maxBytes: number;
  tooLarge: Refusal;
  /** The whole body must arrive within this long of the headers, or the request is answered 408. */
  timeoutMs: number;
}

/** Reads a request's body, refusing one that is too large, too slow or that the parser rejected. */
export function readBody(request: IncomingMessage, limits: ReadBodyLimits): BodyReading {
  let refuse: (refusal: Refusal) => void = () => {};
  const body = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    refuse = (refusal) =>
      settle(() => {
        // Nothing more of this body is wanted; the connection closes after the refusal.
        request.removeListener('data', onData);
        request.resume();
        reject(new BodyRefused(refusal));
      });
    const timer = setTimeout(() => {
      const seconds = limits.timeoutMs / 1000;
      refuse({
        status: 408,
        envelope: {
          error: 'request_timeout',
          message: `The request body did not arrive within ${seconds} second${seconds === 1 ? '' : 's'} of its headers.`,
        },
      });
    }, limits.timeoutMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) {
        refuse(limits.tooLarge);
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.on('end', () => settle(() => resolve(Buffer.concat(chunks))));
    request.on('error', (error) => settle(() => reject(error)));
  });
  return { body, refuse: (refusal) => refuse(refusal) };
}
