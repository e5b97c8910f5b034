import * as z from 'zod';
import { isRecord, readJson } from './api.js';
import type { GraphErrorFacts } from './errors.js';
import { readGraphError } from './errors.js';
import type { GraphContext } from './graph.js';
import {
  INSTAGRAM_ACCOUNT_FIELDS,
  INSTAGRAM_INSIGHT_METRICS,
  type InstagramProductType,
} from './metrics-fields.js';

/** A Graph read: its JSON, or the error it answered (never its text), or an unreadable body. */
export type GraphRead<T> = { ok: true; value: T } | { ok: false; error: GraphErrorFacts } | { ok: false };

const ProductType = z.object({ media_product_type: z.string() });

/** `GET /{media-id}?fields=media_product_type`: which metrics the media answers (AD and unknown types: none). */
export async function productTypeOf(
  context: GraphContext,
  mediaId: string,
): Promise<GraphRead<InstagramProductType | undefined>> {
  const response = await context.api({
    method: 'GET',
    path: `/${mediaId}`,
    params: { fields: 'media_product_type' },
    accessToken: context.accessToken,
    signal: context.signal,
  });
  if (!response.ok) return { ok: false, error: await readGraphError(response) };
  const parsed = ProductType.safeParse(await readJson(response));
  if (!parsed.success) return { ok: false };
  const type = parsed.data.media_product_type;
  return { ok: true, value: type in INSTAGRAM_INSIGHT_METRICS ? (type as InstagramProductType) : undefined };
}

const Insights = z.object({
  data: z.array(
    z.object({
      name: z.string(),
      // Lifetime metrics answer one value; `total_value` is the shape of newer ones.
      values: z.array(z.object({ value: z.unknown() })).optional(),
      total_value: z.object({ value: z.unknown() }).optional(),
    }),
  ),
});

/**
 * `GET /{media-id}/insights?metric=…` with the metrics the product type answers: each metric by
 * Instagram's name. A metric Instagram has no data for is left out of `data` (never 0).
 */
export async function mediaInsights(
  context: GraphContext,
  mediaId: string,
  type: InstagramProductType,
): Promise<GraphRead<Record<string, unknown>>> {
  const response = await context.api({
    method: 'GET',
    path: `/${mediaId}/insights`,
    params: { metric: INSTAGRAM_INSIGHT_METRICS[type].join(',') },
    accessToken: context.accessToken,
    signal: context.signal,
  });
  if (!response.ok) return { ok: false, error: await readGraphError(response) };
  const parsed = Insights.safeParse(await readJson(response));
  if (!parsed.success) return { ok: false };
  const values: Record<string, unknown> = {};
  for (const metric of parsed.data.data) {
    values[metric.name] = metric.values?.[0]?.value ?? metric.total_value?.value;
  }
  return { ok: true, value: values };
}

/** `GET /me?fields=followers_count,follows_count,media_count`: the account's counts, by Instagram's names. */
export async function accountCounts(context: GraphContext): Promise<GraphRead<Record<string, unknown>>> {
  const response = await context.api({
    method: 'GET',
    path: '/me',
    params: { fields: Object.values(INSTAGRAM_ACCOUNT_FIELDS).join(',') },
    accessToken: context.accessToken,
    signal: context.signal,
  });
  if (!response.ok) return { ok: false, error: await readGraphError(response) };
  const body = await readJson(response);
  return isRecord(body) ? { ok: true, value: body } : { ok: false };
}
