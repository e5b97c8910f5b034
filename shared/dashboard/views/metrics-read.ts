import type { Context } from 'hono';
import type { MetricsFailureKind, MetricsReading } from '../../domain/metrics.js';
import type { Platform } from '../../domain/platforms.js';
import { callOperation } from '../call-operation.js';
import type { DashboardEnv } from '../env.js';

/** What the API's two metrics reads answer, a post's or an account's (`N` its metric names). */
export interface MetricsResource<N extends string, V> {
  platform: Platform;
  collectedAt: string;
  metrics: Partial<Record<N, number>>;
  /** The readings, oldest first. */
  history: MetricsReading<V>[];
  nextCollectionAt: string | null;
  problem: { failure: MetricsFailureKind; at: string; missingScopes?: string[] } | null;
}

/** A metrics read's answer as a page needs it: the readings, or the refusal's code and members. */
export type MetricsOutcome<R> =
  | { ok: true; metrics: R }
  | { ok: false; code: string; message: string; fields: Record<string, unknown> };

/** A metrics read through the API's own operation (which never calls the network). */
export async function readMetrics<R>(
  c: Context<DashboardEnv>,
  operationId: 'getPostMetrics' | 'getAccountMetrics',
  params: Record<string, string>,
): Promise<MetricsOutcome<R>> {
  const read = await callOperation<R>(c, operationId, { params });
  if (read.ok) return { ok: true, metrics: read.body };
  return { ok: false, code: read.error.code, message: read.error.message, fields: read.error.fields };
}
