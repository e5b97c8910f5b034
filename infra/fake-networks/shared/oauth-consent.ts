import type { Reply } from './http.js';

/** Escapes the five characters that could end an attribute or start a tag. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The plain page a consent window shows when it cannot even redirect back (bad app or redirect). */
export const consentErrorPage = (message: string): Reply => ({
  status: 400,
  html: `<!doctype html><title>Error</title><p>${escapeHtml(message)}</p>`,
});

/** What the app's registration says about its OAuth client. */
export interface RegisteredApp {
  clientId: string;
  /** Unset: any http(s) redirect is accepted. */
  redirectUris?: readonly string[];
}

/** Each network words its refusals its own way; the checks are the same. */
export interface RedirectRefusals {
  unknownClient: string;
  unregisteredRedirect: string;
}

/**
 * Why a consent request (or its decision) cannot redirect back: the wrong client_id, a redirect_uri
 * that is not an http(s) URL, or one the app did not register. Undefined when it can.
 */
export function redirectProblem(
  app: RegisteredApp,
  params: URLSearchParams,
  refusals: RedirectRefusals,
): string | undefined {
  if (params.get('client_id') !== app.clientId) return refusals.unknownClient;
  const redirectUri = params.get('redirect_uri') ?? '';
  try {
    const parsed = new URL(redirectUri);
    if (!['http:', 'https:'].includes(parsed.protocol)) return 'Invalid redirect_uri.';
  } catch {
    return 'Invalid redirect_uri.';
  }
  if (app.redirectUris && !app.redirectUris.includes(redirectUri)) return refusals.unregisteredRedirect;
  return undefined;
}

/** A 302 to the app's redirect with `params` in its query, and a `fragment` some networks append. */
export function redirectTo(redirectUri: string, params: Record<string, string>, fragment = ''): Reply {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return { status: 302, location: `${target.toString()}${fragment}` };
}

/** The words and choices of one network's consent window. */
export interface ConsentPage {
  title: string;
  heading: string;
  scopes: string[];
  /** Where the form posts its decision. */
  action: string;
  clientId: string;
  redirectUri: string;
  state: string;
  /** The label before the chooser of who signs in ("Signed in as"). */
  chooserLabel: string;
  choices: { value: string; label: string }[];
  /** Markup (already escaped) shown between the chooser and the buttons. */
  extraHtml?: string;
  allowLabel: string;
}

/**
 * The consent window's page: what is asked, who signs in, Allow (decision=approve) and Cancel
 * (decision=deny); the request's client, redirect, state and scopes ride along as hidden fields.
 */
export function consentPage(page: ConsentPage): Reply {
  const hidden = (name: string, value: string) =>
    `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const options = page.choices
    .map((choice) => `<option value="${escapeHtml(choice.value)}">${escapeHtml(choice.label)}</option>`)
    .join('');
  const extra = page.extraHtml === undefined ? '' : `${page.extraHtml}\n`;
  return {
    status: 200,
    html: `<!doctype html>
<html><head><title>${page.title}</title></head>
<body>
<h1>${page.heading}</h1>
<p>It asks for: ${page.scopes.map(escapeHtml).join(', ')}</p>
<form method="post" action="${escapeHtml(page.action)}">
${hidden('client_id', page.clientId)}${hidden('redirect_uri', page.redirectUri)}${hidden('state', page.state)}${hidden('scope', page.scopes.join(','))}
<label>${page.chooserLabel} <select name="user">${options}</select></label>
${extra}<button type="submit" name="decision" value="approve">${page.allowLabel}</button>
<button type="submit" name="decision" value="deny">Cancel</button>
</form>
</body></html>`,
  };
}
