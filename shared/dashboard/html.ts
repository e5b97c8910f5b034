import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

/**
 * A piece of HTML. Everything interpolated with `html` is escaped unless it is itself an `Html`
 * (hono/html), so a page never renders a caller's text as markup.
 */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export { html };

/** Joins fragments (a list's rows) into one, without escaping them twice. */
export function join(parts: readonly Html[]): Html {
  return html`${parts}`;
}

/** Nothing: for a branch that renders no markup. */
export const empty: Html = raw('');
