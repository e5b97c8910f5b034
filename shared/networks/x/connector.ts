import type { Connector } from '../../ports/connector.js';
import { findCommentOnX, publishCommentOnX } from './comment.js';
import { findOnX } from './find-published.js';
import { X_CHUNK_BYTES } from './limits.js';
import { DEFAULT_LOOKUP_PAGES } from './look-up.js';
import { readXAccountMetrics, readXPostMetrics, type XMetricsSettings } from './metrics.js';
import { publishToX, type XPublishSettings } from './publish.js';

export interface XConnectorOptions {
  /** X_API_URL: https://api.x.com, or a fake. */
  apiUrl: string;
  fetch?: typeof fetch;
  /** Epoch ms; the rate-limit waits and the upload budget are measured with it. */
  now?: () => number;
  /** Bytes per APPEND chunk; default X_CHUNK_BYTES (4 MiB); larger for a file that needs more than 1,000. */
  chunkBytes?: number;
  /**
   * How long one call appends chunks before handing back `pending` to carry on in the next
   * invocation; default 30 s, half the worker's 60 s connector time-out.
   */
  uploadBudgetMs?: number;
  /** Timeline pages (100 tweets each) a look-up reads at most; default 5. */
  lookupPages?: number;
}

export const DEFAULT_UPLOAD_BUDGET_MS = 30_000;

/** The short-message network's connector (X API v2): publish.ts, find-published.ts, comment.ts and metrics.ts. */
export function makeXConnector(options: XConnectorOptions): Connector {
  const settings: XPublishSettings = {
    apiUrl: options.apiUrl,
    now: options.now ?? Date.now,
    chunkBytes: options.chunkBytes ?? X_CHUNK_BYTES,
    uploadBudgetMs: options.uploadBudgetMs ?? DEFAULT_UPLOAD_BUDGET_MS,
    lookupPages: options.lookupPages ?? DEFAULT_LOOKUP_PAGES,
    ...(options.fetch && { fetch: options.fetch }),
  };
  const metrics: XMetricsSettings = {
    apiUrl: settings.apiUrl,
    now: settings.now,
    ...(settings.fetch && { fetch: settings.fetch }),
  };
  return {
    publish: (request) => publishToX(settings, request),
    findPublished: (request) => findOnX(settings, request),
    publishComment: (request) => publishCommentOnX(settings, request),
    findComment: (request) => findCommentOnX(settings, request),
    readPostMetrics: (request) => readXPostMetrics(metrics, request),
    readAccountMetrics: (request) => readXAccountMetrics(metrics, request),
  };
}
