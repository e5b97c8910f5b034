import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type AppError, InvalidRequestError, ValidationFailedError } from '../../domain/errors.js';
import { empty, type Html, html } from '../html.js';

/** The networks by the names people know them by (their definitions say). */
export { NETWORK_NAMES } from '../../networks/definitions.js';

/** A post's text as one line of a table: the first part's text, shortened. */
export function excerptOf(
  content: string | ReadonlyArray<{ text?: string | undefined }>,
  length = 80,
): string {
  const text = typeof content === 'string' ? content : (content[0]?.text ?? '');
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** The "Next page" link of a listing, when there is one. */
export function nextPageLink(path: string, query: Record<string, string>, cursor: string | null): Html {
  if (!cursor) return empty;
  const search = new URLSearchParams({ ...query, cursor });
  return html`<p><a href="${path}?${search.toString()}" rel="next">Next page</a></p>`;
}

/**
 * The status a page answers with when an operation refused: 422 for input the person can fix
 * (as the forms do), else the error's own (403, 404, 409, 503…).
 */
export function pageStatusOf(error: AppError): ContentfulStatusCode {
  if (error instanceof InvalidRequestError || error instanceof ValidationFailedError) return 422;
  return error.status as ContentfulStatusCode;
}
