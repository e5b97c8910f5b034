/** A file's bytes, read a range at a time: a stored object (ranged GETs) or a buffer in memory. */
export interface ByteSource {
  size: number;
  /** Bytes [start, end) of the file; `end` at most `size`. */
  read(start: number, end: number): Promise<Uint8Array>;
}

export function bufferSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: async (start, end) => bytes.subarray(start, end) };
}

/** Thrown by a reader for a file that is not what its type says: the probe answers "unknown". */
export class UnreadableVideoError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnreadableVideoError';
  }
}
