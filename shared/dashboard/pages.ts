import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { DashboardEnv } from './env.js';
import type { Html } from './html.js';
import { html } from './html.js';
import { layout, type PageContent } from './layout.js';

/** Answers a whole page. Every page is private to the person who asked: never cached. */
export function page(
  c: Context<DashboardEnv>,
  content: PageContent,
  status: ContentfulStatusCode = 200,
): Response | Promise<Response> {
  c.header('Cache-Control', 'no-store');
  return c.html(layout(c, content), status);
}

/** A page that says what went wrong, in words, never with internals. */
export function errorPage(
  c: Context<DashboardEnv>,
  status: ContentfulStatusCode,
  title: string,
  body: Html,
): Response | Promise<Response> {
  return page(c, { title, body }, status);
}

/** 404: also what a workspace or record the user may not see answers, so its existence is not told. */
export function notFoundPage(c: Context<DashboardEnv>) {
  return errorPage(c, 404, 'Not found', html`<p>There is nothing here, or you do not have access to it.</p>`);
}

/** 403: the user sees the thing but their role may not change it. */
export function forbiddenPage(c: Context<DashboardEnv>, what = 'change this') {
  return errorPage(c, 403, 'Not allowed', html`<p>Your role does not allow you to ${what}.</p>`);
}
