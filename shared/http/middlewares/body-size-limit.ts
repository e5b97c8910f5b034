import { PayloadTooLargeError } from '../../domain/errors.js';
import type { ApiMiddleware } from '../request-state.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Bodies over 1 MiB are refused before anything reads them (413 payload_too_large). */
export function bodySizeLimit(maxBytes = MAX_BODY_BYTES): ApiMiddleware {
  return {
    before: ({ event }) => {
      if (!event.body) return;
      const bytes = event.isBase64Encoded
        ? Math.floor((event.body.length * 3) / 4)
        : Buffer.byteLength(event.body, 'utf8');
      if (bytes > maxBytes) throw new PayloadTooLargeError(maxBytes);
    },
  };
}
