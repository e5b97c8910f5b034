import type { MediaBytes } from '../../../shared/ports/media-bytes.js';
import type { ObjectStorage } from '../../../shared/ports/object-storage.js';

/** MediaBytes over object storage in memory, recording each range read (key, start, end). */
export class InMemoryMediaBytes implements MediaBytes {
  readonly reads: { key: string; start: number; end: number }[] = [];

  constructor(private readonly storage: ObjectStorage) {}

  async readRange(objectKey: string, start: number, end: number, signal: AbortSignal): Promise<Uint8Array> {
    signal.throwIfAborted();
    const body = await this.storage.get(objectKey);
    if (!body) throw new Error(`No such object: ${objectKey}`);
    if (start < 0 || end < start || end > body.length) throw new RangeError(`Bad range ${start}–${end}.`);
    this.reads.push({ key: objectKey, start, end });
    return new Uint8Array(body.subarray(start, end));
  }

  async stream(objectKey: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const body = await this.readRange(
      objectKey,
      0,
      (await this.storage.head(objectKey))?.contentLength ?? 0,
      signal,
    );
    return new ReadableStream({
      start(controller) {
        controller.enqueue(body);
        controller.close();
      },
    });
  }
}
