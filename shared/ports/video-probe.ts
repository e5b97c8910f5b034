import type { VideoFacts } from '../domain/media.js';

/**
 * Reads a video's duration (and frame size, where the container says it) from its container's
 * headers, never its frames: MP4 and QuickTime (ISO-BMFF boxes) and WebM (Matroska elements).
 * A file it cannot read answers `{}` (the duration stays unknown and the file is accepted); a
 * storage failure while reading rejects, as any other read of the bucket would.
 */
export interface VideoProbe {
  /** A stored object, read by ranged GETs of its headers only (a large file is never read whole). */
  stored(objectKey: string, mimeType: string, sizeBytes: number): Promise<VideoFacts>;
  /** Bytes already in memory: a fetched import, or URL media fetched at delivery. */
  inMemory(bytes: Uint8Array, mimeType: string): Promise<VideoFacts>;
}
