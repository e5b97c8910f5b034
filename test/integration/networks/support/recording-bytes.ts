import type { MediaBytes } from '../../../../shared/ports/media-bytes.js';

/** The media bucket, in memory: records every read, so a test can see chunks were read, not files. */
export class RecordingBytes implements MediaBytes {
  readonly objects = new Map<string, Uint8Array>();
  readonly ranges: { key: string; start: number; end: number }[] = [];
  readonly streams: string[] = [];

  put(key: string, bytes: Uint8Array): void {
    this.objects.set(key, bytes);
  }

  private object(key: string): Uint8Array {
    const bytes = this.objects.get(key);
    if (!bytes) throw new Error(`No object ${key}`);
    return bytes;
  }

  async readRange(key: string, start: number, end: number): Promise<Uint8Array> {
    this.ranges.push({ key, start, end });
    return this.object(key).slice(start, end);
  }

  async stream(key: string): Promise<ReadableStream<Uint8Array>> {
    this.streams.push(key);
    const bytes = this.object(key);
    const chunk = 1024;
    let offset = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) {
          controller.close();
          return;
        }
        controller.enqueue(bytes.slice(offset, offset + chunk));
        offset += chunk;
      },
    });
  }
}

/** Bytes whose content tells their position apart (so a misplaced part shows). */
export function patternBytes(size: number, seed = 7): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + seed) % 251;
  return bytes;
}
