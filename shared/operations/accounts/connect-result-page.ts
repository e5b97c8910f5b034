import { createHash } from 'node:crypto';

/** The page's only style, allowed by its hash: the page runs no script and loads nothing. */
const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}' +
  'h1{font-size:1.4rem}';

const STYLE_HASH = createHash('sha256').update(STYLE, 'utf8').digest('base64');

/**
 * The headers of every answer of the callback: nothing is cached (a code or a state is in its
 * address), no referrer leaves it, and a page can do nothing but show text.
 */
export const CALLBACK_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...CALLBACK_HEADERS,
  'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
};

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for HTML: what a network says a person is called is never markup here. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** A plain page: a heading and paragraphs, every part escaped. */
export function resultPage(title: string, paragraphs: readonly string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(title)}</h1>`,
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
