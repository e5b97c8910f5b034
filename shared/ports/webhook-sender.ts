/** One delivery attempt's request: the dispatcher has signed exactly `body`. */
export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  /** The bytes sent, exactly those signed. */
  body: Uint8Array;
}

/**
 * How one POST ended. The reasons are the service's own words (safe for the delivery history):
 * never the receiver's body, never an address the service resolved.
 */
export type WebhookSendOutcome =
  /** The receiver answered, its whole response in time. Any status: a 3xx is not followed. */
  | { kind: 'answered'; status: number }
  /** The whole response did not arrive within the time limit (5 s). */
  | { kind: 'timed_out'; timeoutMs: number }
  /** The URL, or an address its host resolves to now, breaks the address rules: nothing was sent. */
  | { kind: 'refused'; reason: string }
  /** No answer: the name did not resolve, the connection or TLS failed, or it broke. */
  | { kind: 'unreachable'; reason: string };

/**
 * POSTs one webhook delivery (shared/adapters/http/webhook-sender.ts): the address rules checked
 * again and the DNS answer pinned at every call, no redirect followed, the whole response within
 * the time limit. Never throws for what the receiver or the network did; a throw is a bug.
 */
export type WebhookSender = (post: WebhookPost) => Promise<WebhookSendOutcome>;
