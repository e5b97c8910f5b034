import type { Context } from 'hono';
import { callOperation, type OperationOutcome } from '../call-operation.js';
import type { DashboardEnv } from '../env.js';
import type { PostResource } from './posts-list.js';
import { readPostMetrics } from './posts-metrics.js';
import {
  OVERVIEW_POST_BOUND,
  OVERVIEW_WINDOW_DAYS,
  type PostLatestMetrics,
  type WorkspaceMetrics,
} from './workspaces-metrics.js';

interface Listing {
  data: PostResource[];
  nextCursor: string | null;
}

/** A filtered listing's page may hold fewer posts than asked: a few pages at most, then the bound. */
const LISTING_PAGES = 3;
/** Metrics reads run this many at a time, so that one page load is not a burst of fifty. */
const READS_AT_ONCE = 10;
const DAY_MS = 86_400_000;

/** The published listing's query for the next page of at most `limit`. */
function pageQuery(limit: number, cursor: string | null): Record<string, string> {
  const query: Record<string, string> = { status: 'published', limit: String(limit) };
  if (cursor) query.cursor = cursor;
  return query;
}

/** The newest published posts, up to the bound; whether more remain. */
async function newestPublished(
  c: Context<DashboardEnv>,
  workspaceId: string,
): Promise<{ posts: PostResource[]; more: boolean } | undefined> {
  const posts: PostResource[] = [];
  let cursor: string | null = null;
  for (let read = 0; read < LISTING_PAGES && posts.length < OVERVIEW_POST_BOUND; read++) {
    const listed: OperationOutcome<Listing> = await callOperation<Listing>(c, 'listPosts', {
      params: { workspace_id: workspaceId },
      query: pageQuery(OVERVIEW_POST_BOUND - posts.length, cursor),
    });
    if (!listed.ok) return undefined;
    posts.push(...listed.body.data);
    cursor = listed.body.nextCursor;
    if (!cursor) return { posts, more: false };
  }
  return { posts: posts.slice(0, OVERVIEW_POST_BOUND), more: true };
}

/** The post's latest reading through the metrics read; undefined when it has none (a 409). */
async function latestOf(
  c: Context<DashboardEnv>,
  workspaceId: string,
  post: PostResource & { publishedAt: string },
): Promise<PostLatestMetrics | undefined> {
  const read = await readPostMetrics(c, workspaceId, post.id);
  if (!read.ok) return undefined;
  return {
    id: post.id,
    platform: post.platform,
    content: post.content,
    publishedAt: post.publishedAt,
    metrics: read.metrics.metrics,
  };
}

/**
 * The workspace's last 30 days as the overview shows them: the newest published posts (at most
 * OVERVIEW_POST_BOUND) published in the window, each with its latest reading, all through the
 * API's operations. Undefined when the listing was refused.
 */
export async function readWorkspaceMetrics(
  c: Context<DashboardEnv>,
  workspaceId: string,
): Promise<WorkspaceMetrics | undefined> {
  const newest = await newestPublished(c, workspaceId);
  if (!newest) return undefined;
  const since = c.var.deps.services.clock.now() - OVERVIEW_WINDOW_DAYS * DAY_MS;
  const inWindow = newest.posts.filter(
    (post): post is PostResource & { publishedAt: string } =>
      post.publishedAt !== null && Date.parse(post.publishedAt) >= since,
  );
  const measured: PostLatestMetrics[] = [];
  for (let start = 0; start < inWindow.length; start += READS_AT_ONCE) {
    const batch = inWindow.slice(start, start + READS_AT_ONCE);
    const latest = await Promise.all(batch.map((post) => latestOf(c, workspaceId, post)));
    measured.push(...latest.filter((post): post is PostLatestMetrics => post !== undefined));
  }
  return { published: inWindow.length, measured, cutShort: newest.more };
}
