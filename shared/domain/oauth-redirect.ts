/**
 * Where a connect may send the user back once the network is done (`redirectUri`). The rule, in
 * docs/networks.md "Redirect URIs":
 * - an absolute HTTPS URL; plain HTTP only to a loopback host (127.0.0.1, [::1], localhost) and only
 *   where the deployment allows it (the local host);
 * - no user name or password, no fragment, at most 2048 characters;
 * - on the allow-list of the tenant or of the workspace: an entry matches when the scheme, host,
 *   port and path are the same; the query is the caller's own (kept as sent, ours appended).
 */

export const MAX_REDIRECT_URI_LENGTH = 2048;

export interface RedirectRule {
  allowLoopbackHttp: boolean;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

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
  return shapeProblems(value, rule).problems;
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

/**
 * The redirect target with our result appended to its query. The caller's own query is kept
 * byte for byte (a URL object would re-encode it); a redirect URI never has a fragment.
 */
export function redirectWithResult(value: string, result: Readonly<Record<string, string>>): string {
  const ours = new URLSearchParams(result).toString();
  const separator = value.includes('?') ? (value.endsWith('?') || value.endsWith('&') ? '' : '&') : '?';
  return `${value}${separator}${ours}`;
}
