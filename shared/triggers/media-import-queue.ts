import type { Logger } from '../ports/logger.js';
import type { MediaFetcher } from '../ports/media-fetcher.js';
import type { MediaDeps } from '../services/media/confirm-upload.js';
import { type MediaImportMessage, makeImportWorker } from '../services/media/import-media.js';
import { makeSqsBatchHandler } from './sqs-batch.js';

/** The import queue (SQS): one import at a time (each may hold a large file in memory). */
export function makeImportQueueWorker(deps: MediaDeps & { fetchMedia: MediaFetcher; logger: Logger }) {
  return makeSqsBatchHandler<MediaImportMessage>('media import', makeImportWorker(deps), {
    concurrent: false,
    logger: deps.logger,
  });
}
