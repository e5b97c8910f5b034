import type { Context } from 'hono';
import { encodeTime, TIME_LEN } from 'ulid';
import { callOperation } from '../call-operation.js';
import type { DashboardEnv } from '../env.js';
import { empty, type Html, html, join } from '../html.js';
import { utcTime } from './time.js';

/** An event of the workspace's feed, as `GET …/events` answers it. */
export interface FeedEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

interface FeedPage {
  data: FeedEvent[];
  nextCursor: string | null;
}

/** How much of the feed one post page reads: a busy workspace's feed is not read to its end. */
export const HISTORY_PAGES = 5;
const HISTORY_PAGE_SIZE = '100';

export interface PostHistory {
  events: FeedEvent[];
  /** True when the bound stopped the reading with more of the feed still to read. */
  cutShort: boolean;
  /** The feed could not be read: its message. */
  problem?: string;
}

/**
 * A position in the feed just before `iso`: an event id whose time part is the millisecond
 * before and whose random part is the highest, so `after` it is every event from `iso` on.
 */
export function feedPositionBefore(iso: string): string {
  return `evt_${encodeTime(Date.parse(iso) - 1, TIME_LEN)}${'Z'.repeat(26 - TIME_LEN)}`;
}

/**
 * A post's status history: the workspace's events about it (`data.postId`), read from the feed
 * as the API's readEvents answers it, from the post's creation on, at most HISTORY_PAGES pages.
 */
export async function readPostHistory(
  c: Context<DashboardEnv>,
  workspaceId: string,
  post: { id: string; createdAt: string },
): Promise<PostHistory> {
  const events: FeedEvent[] = [];
  let after = feedPositionBefore(post.createdAt);
  for (let read = 0; read < HISTORY_PAGES; read++) {
    const page = await callOperation<FeedPage>(c, 'listEvents', {
      params: { workspace_id: workspaceId },
      query: { after, limit: HISTORY_PAGE_SIZE },
    });
    if (!page.ok) return { events, cutShort: false, problem: page.error.message };
    events.push(...page.body.data.filter((event) => event.data.postId === post.id));
    if (!page.body.nextCursor) return { events, cutShort: false };
    after = page.body.nextCursor;
  }
  return { events, cutShort: true };
}

/** What an event says beyond its type: the status it reached, or the approval's decision. */
function detailOf(event: FeedEvent): string {
  const { status, decision, reason } = event.data;
  if (typeof decision === 'string') return typeof reason === 'string' ? `${decision}: ${reason}` : decision;
  return typeof status === 'string' ? status : '';
}

export function historyTable(history: PostHistory): Html {
  const note = history.problem
    ? html`<p class="alert" role="alert">The history could not be read: ${history.problem}</p>`
    : history.cutShort
      ? html`<p class="hint">Only the first ${HISTORY_PAGES * Number(HISTORY_PAGE_SIZE)} events of the workspace since this post was created were searched; later changes may be missing.</p>`
      : empty;
  const table =
    history.events.length === 0
      ? html`<p>No events about this post yet. Events show a few seconds after a change.</p>`
      : html`<table><caption>Events about this post, oldest first</caption><thead><tr><th scope="col">Event</th><th scope="col">Time</th><th scope="col">Detail</th></tr></thead><tbody>${join(
          history.events.map(
            (event) =>
              html`<tr><th scope="row">${event.type}</th><td>${utcTime(event.createdAt)}</td><td>${detailOf(event)}</td></tr>`,
          ),
        )}</tbody></table>`;
  return html`<section aria-labelledby="history-heading"><h2 id="history-heading">Status history</h2>${note}${table}</section>`;
}
