/**
 * Reads a stored media object's bytes for a connector's upload, in pieces: a network's chunked or
 * multi-part upload reads one chunk at a time, so a 512 MB video is never held whole in memory.
 * S3 GetObject with a Range in AWS, s3rver on the local host.
 */
export interface MediaBytes {
  /** Bytes [start, end) of the object (end exclusive, at most the object's size). */
  readRange(objectKey: string, start: number, end: number, signal: AbortSignal): Promise<Uint8Array>;
  /** The whole object as a stream, for a network that takes the file in one request. */
  stream(objectKey: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
}
