import type { PublishProgress } from '../../ports/connector.js';

/** The most progress a connector may hand back, as JSON (shared/ports/connector.ts). */
export const MAX_PROGRESS_BYTES = 8 * 1024;

/** Progress as the post keeps it (JSON text), or `too_large` past MAX_PROGRESS_BYTES. */
export function encodeProgress(progress: PublishProgress): string | 'too_large' {
  const text = JSON.stringify(progress);
  return Buffer.byteLength(text, 'utf8') > MAX_PROGRESS_BYTES ? 'too_large' : text;
}

/** The progress a post keeps, as the connector gave it; undefined when there is none. */
export function decodeProgress(text: string | undefined): PublishProgress | undefined {
  if (text === undefined) return undefined;
  const parsed: unknown = JSON.parse(text);
  // Only encodeProgress writes it, from a connector's object.
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as PublishProgress)
    : undefined;
}
