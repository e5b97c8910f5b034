import * as z from 'zod';
import { readJson, type ThreadsApi } from './api.js';
import { failOnError, unreadable } from './errors.js';
import { THREADS_LISTING_LIMIT } from './limits.js';

/** A connector call's context: the API, the account's token and user id, the worker's signal. */
export interface GraphContext {
  api: ThreadsApi;
  accessToken: string;
  /** The Threads user id (`/me`'s id), or `me`. */
  userId: string;
  signal: AbortSignal;
}

const Id = z.union([z.string(), z.number()]).transform(String);
export const Created = z.object({ id: Id });

function get(context: GraphContext, path: string, params: Record<string, string>): Promise<Response> {
  return context.api({
    method: 'GET',
    path,
    params,
    accessToken: context.accessToken,
    signal: context.signal,
  });
}

/** `POST /{threads-user-id}/threads`: a container, by its id (threads.md §4 step 1). */
export async function createContainer(
  context: GraphContext,
  params: Record<string, string>,
): Promise<string> {
  const response = await context.api({
    method: 'POST',
    path: `/${context.userId}/threads`,
    params,
    accessToken: context.accessToken,
    signal: context.signal,
  });
  await failOnError(response, 'container');
  const created = Created.safeParse(await readJson(response));
  if (!created.success) throw unreadable('the container creation');
  return created.data.id;
}

export const CONTAINER_STATUSES = ['IN_PROGRESS', 'FINISHED', 'PUBLISHED', 'ERROR', 'EXPIRED'] as const;
export type ContainerStatusCode = (typeof CONTAINER_STATUSES)[number];

const Status = z.object({ status: z.enum(CONTAINER_STATUSES), error_message: z.string().optional() });

export interface ContainerStatus {
  code: ContainerStatusCode;
  /** For ERROR: Meta's reason (FAILED_DOWNLOADING_VIDEO, INVALID_DURATION…, UNKNOWN). */
  errorMessage?: string;
}

/** `GET /{container-id}?fields=id,status,error_message` (step 2); an ERROR comes back as HTTP 200. */
export async function containerStatus(context: GraphContext, containerId: string): Promise<ContainerStatus> {
  const response = await get(context, `/${containerId}`, { fields: 'id,status,error_message' });
  await failOnError(response, 'status');
  const parsed = Status.safeParse(await readJson(response));
  if (!parsed.success) throw unreadable('the container status');
  const reason = parsed.data.error_message;
  return {
    code: parsed.data.status,
    ...(reason && /^[A-Z_]{1,60}$/.test(reason) && { errorMessage: reason }),
  };
}

/** `POST /{threads-user-id}/threads_publish?creation_id=…` (step 3): the published post's id. */
export function publishContainer(context: GraphContext, containerId: string): Promise<Response> {
  return context.api({
    method: 'POST',
    path: `/${context.userId}/threads_publish`,
    params: { creation_id: containerId },
    accessToken: context.accessToken,
    signal: context.signal,
  });
}

const Quota = z.object({
  quota_total: z.number().int().positive(),
  quota_duration: z.number().int().positive(),
});
const Limit = z.object({
  data: z
    .array(
      z.object({
        quota_usage: z.number().int().min(0),
        config: Quota,
        reply_quota_usage: z.number().int().min(0).optional(),
        reply_config: Quota.optional(),
      }),
    )
    .min(1),
});

export interface Usage {
  used: number;
  total: number;
  windowSeconds: number;
}

export interface PublishingLimit {
  posts: Usage;
  replies?: Usage;
}

/** `GET /{threads-user-id}/threads_publishing_limit`: posts (and replies) in the rolling window, of how many (§8). */
export async function publishingLimit(context: GraphContext): Promise<PublishingLimit | undefined> {
  const response = await get(context, `/${context.userId}/threads_publishing_limit`, {
    fields: 'quota_usage,config,reply_quota_usage,reply_config',
  });
  await failOnError(response, 'limit');
  const parsed = Limit.safeParse(await readJson(response));
  const first = parsed.success ? parsed.data.data[0] : undefined;
  if (!first) return undefined;
  const usage = (used: number, config: z.infer<typeof Quota>): Usage => ({
    used,
    total: config.quota_total,
    windowSeconds: config.quota_duration,
  });
  return {
    posts: usage(first.quota_usage, first.config),
    ...(first.reply_config &&
      first.reply_quota_usage !== undefined && {
        replies: usage(first.reply_quota_usage, first.reply_config),
      }),
  };
}

const Listed = z.object({
  id: Id,
  text: z.string().optional(),
  media_type: z.string().optional(),
  timestamp: z.string().optional(),
  permalink: z.string().optional(),
  replied_to: z.object({ id: Id }).optional(),
});
const Page = z.object({ data: z.array(Listed) });
export type ListedPost = z.infer<typeof Listed>;

/**
 * The account's recent posts (`/threads`) or replies (`/replies`), newest first, from `sinceSeconds`
 * (threads.md §9). Undefined when the answer is not a list.
 */
export async function recentPosts(
  context: GraphContext,
  edge: 'threads' | 'replies',
  sinceSeconds?: number,
): Promise<ListedPost[] | undefined> {
  const response = await get(context, `/${context.userId}/${edge}`, {
    fields: `id,text,media_type,timestamp,permalink${edge === 'replies' ? ',replied_to' : ''}`,
    limit: String(THREADS_LISTING_LIMIT),
    ...(sinceSeconds !== undefined && { since: String(sinceSeconds) }),
  });
  await failOnError(response, 'listing');
  const parsed = Page.safeParse(await readJson(response));
  return parsed.success ? parsed.data.data : undefined;
}

const Permalink = z.object({ permalink: z.string().min(1) });

/** `GET /{media-id}?fields=permalink`; undefined when Threads does not say (never fails a post). */
export async function permalinkOf(context: GraphContext, mediaId: string): Promise<string | undefined> {
  try {
    const response = await get(context, `/${mediaId}`, { fields: 'permalink' });
    if (!response.ok) return undefined;
    const parsed = Permalink.safeParse(await readJson(response));
    return parsed.success ? parsed.data.permalink : undefined;
  } catch {
    return undefined;
  }
}
