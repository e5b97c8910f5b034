import { literalHostProblem } from './address-ranges.js';

/** The only port a media URL may name: HTTPS's own (docs/media.md). */
export const MEDIA_URL_PORTS: readonly number[] = [443];

/** The ports a URL may name: a list (media: 443), or a rule (webhook receivers, docs/webhooks.md). */
export type PortRule = readonly number[] | ((port: number) => boolean);

/** Why a URL is refused before any DNS lookup, in the order the rules are checked. */
export type UrlRefusal =
  | { rule: 'scheme'; scheme: string }
  | { rule: 'credentials' }
  | { rule: 'port'; port: number }
  | { rule: 'host'; reason: string };

/**
 * The one statement of what the SSRF-safe fetcher refuses from the URL alone, so that a URL it
 * would refuse at publish or import time is refused when the request names it (400), and the two
 * can never drift apart:
 * 1. the scheme is https;
 * 2. there are no credentials (user:password@);
 * 3. the port is an allowed one (443; tests of the fetcher pass their own server's port; webhook
 *    receivers pass their own rule);
 * 4. the host is not localhost (nor a .localhost name), nor a literal address outside the public
 *    ranges (`literalHostProblem`, after the URL parser's normalisation of every IPv4 spelling).
 * What only DNS can tell (a name that resolves to a private address) is for the fetcher alone.
 */
export function urlRefusal(url: URL, allowedPorts: PortRule = MEDIA_URL_PORTS): UrlRefusal | undefined {
  if (url.protocol !== 'https:') return { rule: 'scheme', scheme: url.protocol.replace(/:$/, '') };
  if (url.username || url.password) return { rule: 'credentials' };
  const port = url.port === '' ? 443 : Number(url.port);
  const portAllowed = typeof allowedPorts === 'function' ? allowedPorts(port) : allowedPorts.includes(port);
  if (!portAllowed) return { rule: 'port', port };
  const hostProblem = literalHostProblem(url);
  if (hostProblem) return { rule: 'host', reason: hostProblem };
  return undefined;
}

/** A refusal as a sentence about the caller's own URL (it names nothing the service resolved). */
export function describeUrlRefusal(refusal: UrlRefusal): string {
  switch (refusal.rule) {
    case 'scheme':
      return `Only HTTPS URLs are fetched, not ${refusal.scheme}.`;
    case 'credentials':
      return 'Credentials in the URL (user:password@) are not accepted.';
    case 'port':
      return `Only port 443 is fetched, not port ${refusal.port}.`;
    case 'host':
      return `Not a public address: ${refusal.reason}.`;
  }
}
