import { html } from './html.js';

/**
 * The hidden field every form carries. Apart from the middleware that checks it (csrf.ts), so the
 * layout and forms can render it without importing the middleware, which answers with a page.
 */
export const CSRF_FIELD = '_csrf';

/** The hidden input of every form. */
export function csrfInput(token: string) {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
}
