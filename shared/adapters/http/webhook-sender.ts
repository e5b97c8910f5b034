import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isPublicAddress } from '../../domain/address-ranges.js';
import {
  describeWebhookUrlRefusal,
  isLoopbackReceiverUrl,
  webhookUrlRefusal,
} from '../../domain/webhooks/receiver-url.js';
import type { WebhookPost, WebhookSender, WebhookSendOutcome } from '../../ports/webhook-sender.js';
import {
  Deadline,
  defaultLookup,
  type Lookup,
  openPinned,
  PinnedConnectionError,
  type PinnedTarget,
  pinAddresses,
  type RequestFunction,
} from './pinned-connection.js';

/** Success is a 2xx whose WHOLE response arrives within this (issue 10; docs/webhooks.md). */
export const WEBHOOK_TIMEOUT_MS = 5_000;

export interface WebhookSenderOptions {
  /** Time for the whole attempt: lookup, connection, request and the whole response. */
  timeoutMs?: number;
  /**
   * The local host only: POST to `http://127.0.0.1:<port>` and `http://localhost:<port>` receivers
   * (receiver-url.ts `isLoopbackReceiverUrl`), on loopback. Nothing else relaxes the rules.
   */
  allowLoopbackHttp?: boolean;
  lookup?: Lookup;
  /** `isPublicAddress` unless a test of the HTTPS path also allows its own loopback server. */
  isAllowedAddress?: (address: string) => boolean;
  /** Extra trust anchors (tests trust their self-signed certificate); the system's otherwise. */
  ca?: string | Buffer;
  /** Seams for tests: where a connection would go, without a network. */
  httpsRequest?: RequestFunction;
  httpRequest?: RequestFunction;
}

/** Thrown by the deadline; caught here and turned into `timed_out`. */
class AttemptTimedOut extends Error {
  override readonly name = 'AttemptTimedOut';
}

const LOOPBACK_V4 = { address: '127.0.0.1', family: 4 } as const;
const LOOPBACK_V6 = { address: '::1', family: 6 } as const;

const CONNECTION_FAILURES: Record<PinnedConnectionError['stage'], string> = {
  connect: 'The connection to the receiver failed.',
  tls: 'The TLS handshake or the certificate check failed.',
  broken: 'The connection broke before the whole response arrived.',
};

/** Waits for the whole body, discarding it: nothing of it is kept, logged or recorded. */
function drain(response: IncomingMessage): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    response.on('end', () => resolve());
    response.on('error', (error) => reject(new PinnedConnectionError('broken', { cause: error })));
    response.on('close', () => {
      if (!response.complete) reject(new PinnedConnectionError('broken', { cause: undefined }));
    });
    response.resume();
  });
}

/**
 * The webhook dispatcher's HTTP client (issue 10): every attempt checks the receiver URL against
 * the registration rules again (https, a public host, the port rule), resolves the name once and
 * connects only to a vetted public address (pinned-connection.ts, shared with the media fetcher),
 * sends one POST with the exact signed bytes, follows no redirect, and gives the whole exchange
 * `timeoutMs`. Loopback plain-HTTP receivers are reached only when `allowLoopbackHttp` is set (the
 * local host).
 */
export function makeWebhookSender(options: WebhookSenderOptions = {}): WebhookSender {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const lookup = options.lookup ?? defaultLookup;
  const isAllowedAddress = options.isAllowedAddress ?? isPublicAddress;
  const secureRequest = options.httpsRequest ?? httpsRequest;
  const plainRequest = options.httpRequest ?? httpRequest;

  /** Where to connect, or why not; a loopback receiver is pinned to loopback without a lookup. */
  async function vet(
    url: URL,
    deadline: Deadline,
  ): Promise<{ target: PinnedTarget; loopback: boolean } | { refused: string } | { unreachable: string }> {
    if (options.allowLoopbackHttp && isLoopbackReceiverUrl(url)) {
      const port = url.port === '' ? 80 : Number(url.port);
      const addresses = url.hostname === 'localhost' ? [LOOPBACK_V4, LOOPBACK_V6] : [LOOPBACK_V4];
      return { target: { url, hostname: url.hostname, port, addresses }, loopback: true };
    }
    const refusal = webhookUrlRefusal(url);
    if (refusal) return { refused: describeWebhookUrlRefusal(refusal) };
    const pinned = await pinAddresses(url, { lookup, isAllowedAddress, deadline, defaultPort: 443 });
    if ('target' in pinned) return { target: pinned.target, loopback: false };
    switch (pinned.refusal.kind) {
      case 'literal_not_allowed':
        return { refused: 'The receiver URL names an address that is not public.' };
      case 'resolved_not_allowed':
        return { refused: "The receiver URL's host resolves to an address that is not public." };
      case 'does_not_resolve':
        return { unreachable: "The receiver URL's host does not resolve." };
      case 'no_address':
        return { unreachable: "The receiver URL's host has no address." };
    }
  }

  async function attempt(post: WebhookPost, url: URL, deadline: Deadline): Promise<WebhookSendOutcome> {
    const vetted = await vet(url, deadline);
    if ('refused' in vetted) return { kind: 'refused', reason: vetted.refused };
    if ('unreachable' in vetted) return { kind: 'unreachable', reason: vetted.unreachable };
    const { response, req } = await openPinned({
      target: vetted.target,
      method: 'POST',
      headers: post.headers,
      body: post.body,
      request: vetted.loopback ? plainRequest : secureRequest,
      tls: !vetted.loopback,
      ...(options.ca !== undefined && { ca: options.ca }),
      deadline,
    });
    const status = response.statusCode ?? 0;
    // Only a success needs its whole response; anything else has failed already (3xx included).
    if (status >= 200 && status <= 299) await deadline.race(drain(response));
    req.destroy();
    return { kind: 'answered', status };
  }

  return async function sendWebhook(post) {
    let url: URL;
    try {
      url = new URL(post.url);
    } catch {
      return { kind: 'refused', reason: 'The receiver URL is not a URL.' };
    }
    const deadline = new Deadline(timeoutMs, () => new AttemptTimedOut());
    try {
      return await deadline.race(attempt(post, url, deadline));
    } catch (error) {
      if (error instanceof AttemptTimedOut) return { kind: 'timed_out', timeoutMs };
      if (error instanceof PinnedConnectionError) {
        return { kind: 'unreachable', reason: CONNECTION_FAILURES[error.stage] };
      }
      throw error;
    } finally {
      deadline.clear();
    }
  };
}
