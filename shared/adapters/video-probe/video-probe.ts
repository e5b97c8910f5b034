import type { VideoFacts } from '../../domain/media.js';
import type { MediaBytes } from '../../ports/media-bytes.js';
import type { VideoProbe } from '../../ports/video-probe.js';
import { type ByteSource, bufferSource } from './byte-source.js';
import { readIsoBmff } from './iso-bmff.js';
import { readWebm } from './webm.js';

/** How long reading one stored file's headers may take, all its ranged reads together. */
const PROBE_TIMEOUT_MS = 10_000;

const READERS: Readonly<Record<string, (source: ByteSource) => Promise<VideoFacts>>> = {
  'video/mp4': readIsoBmff,
  'video/quicktime': readIsoBmff,
  'video/webm': readWebm,
};

/**
 * The video probe over the media bucket's ranged reads (S3 GetObject with a Range, s3rver on the
 * local host). Types other than MP4, QuickTime and WebM answer `{}` without a read.
 */
export function makeVideoProbe(bytes: MediaBytes): VideoProbe {
  return {
    stored(objectKey, mimeType, sizeBytes) {
      const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
      return probe(mimeType, {
        size: sizeBytes,
        read: (start, end) => bytes.readRange(objectKey, start, end, signal),
      });
    },
    inMemory: (file, mimeType) => probe(mimeType, bufferSource(file)),
  };
}

/**
 * A file that is not what its type says (or a container we cannot follow) answers `{}`: the upload
 * stands and its duration stays unknown. A failed read of the file rejects (storage trouble is not
 * the file's fault, and the caller's retry may read it).
 */
async function probe(mimeType: string, source: ByteSource): Promise<VideoFacts> {
  const read = READERS[mimeType];
  if (!read || source.size === 0) return {};
  const reading = new ReadTracker(source);
  try {
    return await read(reading);
  } catch (error) {
    if (reading.failed) throw error;
    // UnreadableVideoError, or whatever the parser throws on bytes that are not a movie.
    return {};
  }
}

/** Tells a failed read (storage) from a parser's refusal (the file), which both reach `probe` as errors. */
class ReadTracker implements ByteSource {
  failed = false;
  readonly size: number;

  constructor(private readonly source: ByteSource) {
    this.size = source.size;
  }

  async read(start: number, end: number): Promise<Uint8Array> {
    try {
      return await this.source.read(start, end);
    } catch (error) {
      this.failed = true;
      throw error;
    }
  }
}
