import { describeUrlRefusal, type UrlRefusal, urlRefusal } from '../fetchable-url.js';

/**
 * Which webhook URLs may be registered (issue 10; docs/webhooks.md "Receiver URL"). The rules are
 * the media fetcher's (`urlRefusal`, one statement for both): HTTPS, no credentials, no localhost
 * name, no literal address outside the public ranges; at every delivery the dispatcher resolves the
 * name again and connects only to a vetted public address (DNS pinned), as the fetcher does.
 *
 * One difference, the port. Media URLs are fetched on 443 only; webhook receivers may also listen on
 * any unprivileged port (1024–65535), because real receivers often do (8443, 3000, 9000 behind a
 * TLS-terminating proxy) and the address rules, not the port, are what keeps the service out of
 * private networks. The privileged ports other than 443 (22, 25, 80, 110, 445, …) stay refused: no
 * HTTPS receiver lives there, and refusing them keeps the service from being aimed at the well-known
 * services of other protocols.
 */

const UNPRIVILEGED_PORTS = { from: 1024, to: 65_535 } as const;
const URL_MAX_LENGTH = 2048;

/** True for a port a public webhook receiver may use: 443, or 1024–65535. */
export function isWebhookReceiverPort(port: number): boolean {
  return port === 443 || (port >= UNPRIVILEGED_PORTS.from && port <= UNPRIVILEGED_PORTS.to);
}

export interface WebhookUrlOptions {
  /**
   * The local host only (infra/local): also accept `http://127.0.0.1:<port>/…` and
   * `http://localhost:<port>/…`, so a developer can receive events on their laptop. Nothing else
   * relaxes the rules: not `https` on loopback, not other loopback addresses, not `[::1]`, not
   * `*.localhost`, not private ranges.
   */
  allowLoopbackHttp?: boolean;
}

/**
 * True for the only loopback receivers the local host allows: plain HTTP to 127.0.0.1 or to
 * localhost, any port, no credentials. The dispatcher connects to such a URL on loopback instead
 * of vetting public addresses, and only when `allowLoopbackHttp` was given.
 */
export function isLoopbackReceiverUrl(url: URL): boolean {
  return (
    url.protocol === 'http:' &&
    (url.hostname === '127.0.0.1' || url.hostname === 'localhost') &&
    url.username === '' &&
    url.password === ''
  );
}

/** Why a webhook URL is refused before any DNS lookup, or undefined when it may be registered. */
export function webhookUrlRefusal(url: URL, options: WebhookUrlOptions = {}): UrlRefusal | undefined {
  if (options.allowLoopbackHttp && isLoopbackReceiverUrl(url)) return undefined;
  return urlRefusal(url, isWebhookReceiverPort);
}

/** A refusal as a sentence about the caller's own webhook URL. */
export function describeWebhookUrlRefusal(refusal: UrlRefusal, options: WebhookUrlOptions = {}): string {
  switch (refusal.rule) {
    case 'scheme':
      return options.allowLoopbackHttp
        ? `A webhook URL must use HTTPS (plain HTTP only to 127.0.0.1 or localhost here), not ${refusal.scheme}.`
        : `A webhook URL must use HTTPS, not ${refusal.scheme}.`;
    case 'port':
      return `A webhook receiver may listen on port 443 or 1024–65535, not port ${refusal.port}.`;
    case 'credentials':
    case 'host':
      return describeUrlRefusal(refusal);
  }
}

/**
 * The registration check as one call for a request schema: a message for the caller, or undefined
 * when `text` is a URL that may be registered. What only DNS can tell (a name that resolves to a
 * private address) is checked at every delivery.
 */
export function webhookUrlProblem(text: string, options: WebhookUrlOptions = {}): string | undefined {
  if (text.length > URL_MAX_LENGTH) return `A webhook URL has at most ${URL_MAX_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Not a URL.';
  }
  const refusal = webhookUrlRefusal(url, options);
  return refusal && describeWebhookUrlRefusal(refusal, options);
}
