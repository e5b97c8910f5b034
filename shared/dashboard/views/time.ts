import { empty, type Html, html } from '../html.js';

/** An ISO 8601 time as the dashboard shows every time: `<time>` with the minute, in UTC. */
export function utcTime(iso: string | null | undefined): Html {
  if (!iso) return empty;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return html`${iso}`;
  const shown = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return html`<time datetime="${at.toISOString()}">${shown}</time>`;
}
