import * as z from 'zod';
import { type InstagramApi, readJson } from './api.js';
import { failOnError, unreadable } from './errors.js';

/** A connector call's context: the API, the account's token and user id, the worker's signal. */
export interface GraphContext {
  api: InstagramApi;
  accessToken: string;
  /** The professional account's id (`/me`'s user_id), or `me`. */
  userId: string;
  signal: AbortSignal;
}

const Created = z.object({ id: z.union([z.string(), z.number()]).transform(String) });

/** `POST /{ig-user-id}/media`: a container, by its id (instagram.md §2 step 1). */
export async function createContainer(
  context: GraphContext,
  params: Record<string, string>,
): Promise<string> {
  const response = await context.api({
    method: 'POST',
    path: `/${context.userId}/media`,
    params,
    accessToken: context.accessToken,
    signal: context.signal,
  });
  await failOnError(response, 'container');
  const created = Created.safeParse(await readJson(response));
  if (!created.success) throw unreadable('the container creation');
  return created.data.id;
}

export type ContainerStatusCode = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

const Status = z.object({
  status_code: z.enum(['IN_PROGRESS', 'FINISHED', 'ERROR', 'EXPIRED', 'PUBLISHED']),
  status: z.string().optional(),
});

export interface ContainerStatus {
  code: ContainerStatusCode;
  /** For ERROR: the subcode Instagram names in `status` (e.g. 2207026), for platformRawCode. */
  subcode?: string;
}

/** `GET /{container-id}?fields=status_code,status` (step 2). */
export async function containerStatus(context: GraphContext, containerId: string): Promise<ContainerStatus> {
  const response = await context.api({
    method: 'GET',
    path: `/${containerId}`,
    params: { fields: 'status_code,status' },
    accessToken: context.accessToken,
    signal: context.signal,
  });
  await failOnError(response, 'status');
  const parsed = Status.safeParse(await readJson(response));
  if (!parsed.success) throw unreadable('the container status');
  const subcode = /\b(2207\d{3})\b/.exec(parsed.data.status ?? '')?.[1];
  return { code: parsed.data.status_code, ...(subcode && { subcode }) };
}

/** `POST /{ig-user-id}/media_publish?creation_id=…` (step 3): the published media's id. */
export async function publishContainer(context: GraphContext, containerId: string): Promise<Response> {
  return context.api({
    method: 'POST',
    path: `/${context.userId}/media_publish`,
    params: { creation_id: containerId },
    accessToken: context.accessToken,
    signal: context.signal,
  });
}

export const PublishedAnswer = Created;

const Limit = z.object({
  data: z
    .array(
      z.object({
        quota_usage: z.number().int().min(0),
        config: z.object({
          quota_total: z.number().int().positive(),
          quota_duration: z.number().int().positive(),
        }),
      }),
    )
    .min(1),
});

export interface PublishingLimit {
  used: number;
  total: number;
  windowSeconds: number;
}

/** `GET /{ig-user-id}/content_publishing_limit`: posts published in the rolling window, of how many. */
export async function publishingLimit(context: GraphContext): Promise<PublishingLimit | undefined> {
  const response = await context.api({
    method: 'GET',
    path: `/${context.userId}/content_publishing_limit`,
    params: { fields: 'quota_usage,config' },
    accessToken: context.accessToken,
    signal: context.signal,
  });
  await failOnError(response, 'limit');
  const parsed = Limit.safeParse(await readJson(response));
  const first = parsed.success ? parsed.data.data[0] : undefined;
  if (!first) return undefined;
  return {
    used: first.quota_usage,
    total: first.config.quota_total,
    windowSeconds: first.config.quota_duration,
  };
}

const MediaPage = z.object({
  data: z.array(
    z.object({
      id: z.union([z.string(), z.number()]).transform(String),
      caption: z.string().optional(),
      media_type: z.string().optional(),
      media_product_type: z.string().optional(),
      timestamp: z.string().optional(),
      permalink: z.string().optional(),
    }),
  ),
});
export type ListedMedia = z.infer<typeof MediaPage>['data'][number];

/**
 * The account's recent media, newest first: `/media` (feed posts and reels) or `/stories` (the
 * last 24 hours' stories). Undefined when the answer is not a list.
 */
export async function recentMedia(
  context: GraphContext,
  edge: 'media' | 'stories',
  sinceSeconds?: number,
): Promise<ListedMedia[] | undefined> {
  const response = await context.api({
    method: 'GET',
    path: `/${context.userId}/${edge}`,
    params: {
      fields: 'id,caption,media_type,media_product_type,timestamp,permalink',
      limit: '50',
      ...(sinceSeconds !== undefined && { since: String(sinceSeconds) }),
    },
    accessToken: context.accessToken,
    signal: context.signal,
  });
  await failOnError(response, 'status');
  const parsed = MediaPage.safeParse(await readJson(response));
  return parsed.success ? parsed.data.data : undefined;
}

const Permalink = z.object({ permalink: z.string().min(1) });

/** `GET /{media-id}?fields=permalink`; undefined when Instagram does not say (never fails a post). */
export async function permalinkOf(context: GraphContext, mediaId: string): Promise<string | undefined> {
  try {
    const response = await context.api({
      method: 'GET',
      path: `/${mediaId}`,
      params: { fields: 'permalink' },
      accessToken: context.accessToken,
      signal: context.signal,
    });
    if (!response.ok) return undefined;
    const parsed = Permalink.safeParse(await readJson(response));
    return parsed.success ? parsed.data.permalink : undefined;
  } catch {
    return undefined;
  }
}
