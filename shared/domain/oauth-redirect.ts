/**
 * Where a connect may send the user back once the network is done (`redirectUri`). The rule, in
 * docs/networks.md "Redirect URIs":
 * - an absolute HTTPS URL; plain HTTP only to a loopback host (127.0.0.1, [::1], localhost) and only
 *   where the deployment allows it (the local host);
 * - no user name or password, no fragment, at most 2048 characters;
 * - no control character (a line break, a tab…) and no space at either end: a URL parser drops
 *   them silently, so the text would not be the URL that was checked;
 * - no `accountId`, `error` or `error_description` in its query: those are the callback's;
 * - on the allow-list of the tenant or of the workspace: an entry matches when the scheme, host,
 *   port and path are the same; the query is the caller's own (ours appended).
 * The browser is sent to the URL as parsed (RedirectTarget), never to the raw text.
 */

export const MAX_REDIRECT_URI_LENGTH = 2048;

export interface RedirectRule {
  allowLoopbackHttp: boolean;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** A control character: C0, DEL or C1 (Unicode category Cc). */
const CONTROL_CHARACTER = /\p{Cc}/u;

/** The query parameters the callback adds: a receiver must never see two values of one. */
export const RESULT_PARAMETERS = ['accountId', 'error', 'error_description'] as const;

function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function shapeProblems(value: string, rule: RedirectRule): { url?: URL; problems: string[] } {
  if (value.length > MAX_REDIRECT_URI_LENGTH)
    return { problems: [`At most ${MAX_REDIRECT_URI_LENGTH} characters.`] };
  if (CONTROL_CHARACTER.test(value))
    return { problems: ['Must not contain a control character (a line break, a tab…).'] };
  if (value !== value.trim()) return { problems: ['Must not begin or end with a space.'] };
  const url = parse(value);
  if (!url) return { problems: ['Must be an absolute URL.'] };
  const problems: string[] = [];
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(loopbackHttp && rule.allowLoopbackHttp)) {
    problems.push(
      rule.allowLoopbackHttp
        ? 'Must be HTTPS, or plain HTTP to 127.0.0.1, [::1] or localhost.'
        : 'Must be HTTPS.',
    );
  }
  if (url.username !== '' || url.password !== '') problems.push('Must not carry a user name or password.');
  if (value.includes('#')) problems.push('Must not have a fragment (#…).');
  return { url, problems };
}

/** What is wrong with `value` as a connect's redirectUri, in words; empty when its shape is fine. */
export function redirectUriProblems(value: string, rule: RedirectRule): string[] {
  const { url, problems } = shapeProblems(value, rule);
  if (url && RESULT_PARAMETERS.some((name) => url.searchParams.has(name)))
    problems.push(`Must not have ${RESULT_PARAMETERS.join(', ')} in its query: the service adds them.`);
  return problems;
}

/**
 * What is wrong with `value` as an allow-list entry. Entries may name loopback HTTP wherever they
 * are set: whether a deployment accepts it is decided per connect, by the deployment's own rule.
 */
export function redirectEntryProblems(value: string): string[] {
  const { url, problems } = shapeProblems(value, { allowLoopbackHttp: true });
  if (url && url.search !== '') problems.push('Must not have a query: any query is allowed on a match.');
  return problems;
}

const matchKey = (url: URL) => `${url.protocol}//${url.host}${url.pathname}`;

/** Whether `value` matches an entry of the allow-list (same scheme, host, port and path). */
export function isAllowedRedirect(value: string, allowList: readonly string[]): boolean {
  const url = parse(value);
  if (!url) return false;
  const key = matchKey(url);
  return allowList.some((entry) => {
    const allowed = parse(entry);
    return allowed !== undefined && matchKey(allowed) === key;
  });
}

/** A redirect URI as parsed and serialised again: printable ASCII only, so always a valid Location. */
export type RedirectTarget = string & { readonly redirectTarget: unique symbol };

/**
 * The URL the browser is sent to: `value` parsed and serialised (the parser's reading, which the
 * rules checked, with what must be percent-encoded encoded); undefined when it does not parse.
 * The query keeps its own encoding: only characters a URL cannot hold are encoded.
 */
export function redirectTarget(value: string): RedirectTarget | undefined {
  return parse(value)?.href as RedirectTarget | undefined;
}

/**
 * The redirect target with our result appended to its query as text: setting it through a URL's
 * searchParams would re-encode the caller's whole query. A redirect URI never has a fragment.
 */
export function redirectWithResult(target: RedirectTarget, result: Readonly<Record<string, string>>): string {
  const ours = new URLSearchParams(result).toString();
  const separator = target.includes('?') ? (target.endsWith('?') || target.endsWith('&') ? '' : '&') : '?';
  return `${target}${separator}${ours}`;
}
