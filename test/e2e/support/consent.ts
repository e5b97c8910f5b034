import { expect } from 'vitest';

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** HTML text back to plain text: the named entities the fakes use, and numeric ones. */
function unescapeHtml(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

/**
 * What a person does on a fake network's consent page, without a browser: open the authorization
 * URL, read its form (hidden fields, the first account offered in its select), and press Allow
 * (or Cancel). Answers where the network sends the browser next: our callback.
 */
export async function consentAt(
  authorizeUrl: string,
  decision: 'approve' | 'deny' = 'approve',
): Promise<string> {
  const page = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(page.status, `consent page at ${new URL(authorizeUrl).origin}`).toBe(200);
  const html = await page.text();
  const action = /<form[^>]*action="([^"]+)"/i.exec(html)?.[1];
  if (!action) throw new Error('The consent page has no form.');
  const fields = new URLSearchParams();
  for (const input of html.matchAll(/<input[^>]*type="hidden"[^>]*>/gi)) {
    const name = /name="([^"]*)"/i.exec(input[0])?.[1];
    const value = /value="([^"]*)"/i.exec(input[0])?.[1] ?? '';
    if (name) fields.set(unescapeHtml(name), unescapeHtml(value));
  }
  const select = /<select[^>]*name="([^"]+)"[^>]*>\s*<option[^>]*value="([^"]*)"/i.exec(html);
  if (select?.[1]) fields.set(select[1], unescapeHtml(select[2] ?? ''));
  fields.set('decision', decision);
  const answer = await fetch(new URL(unescapeHtml(action), authorizeUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return String(answer.headers.get('location'));
}
