import type { VideoFacts } from '../../domain/media.js';
import { type ByteSource, UnreadableVideoError } from './byte-source.js';

/**
 * Matroska writes Info and Tracks before the first Cluster (the frames), so they are in the file's
 * head; a muxer that put them elsewhere leaves the duration unknown.
 */
const HEAD_BYTES = 1024 * 1024;

const ID = {
  ebml: 0x1a45dfa3,
  docType: 0x4282,
  segment: 0x18538067,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackType: 0x83,
  video: 0xe0,
  pixelWidth: 0xb0,
  pixelHeight: 0xba,
  cluster: 0x1f43b675,
} as const;

/** Elements whose children are read; every other element is stepped over by its size. */
const MASTERS = new Set<number>([ID.segment, ID.info, ID.tracks, ID.trackEntry, ID.video]);
const VIDEO_TRACK = 1;
const DEFAULT_TIMECODE_SCALE_NS = 1_000_000;

interface Track {
  type?: number;
  pixelWidth?: number;
  pixelHeight?: number;
}

const TRACK_FIELD = {
  [ID.trackType]: 'type',
  [ID.pixelWidth]: 'pixelWidth',
  [ID.pixelHeight]: 'pixelHeight',
} as const satisfies Record<number, keyof Track>;

interface Header {
  id: number;
  /** Undefined for "unknown size" (all ones): a live recording's Segment and Clusters. */
  size: number | undefined;
  dataStart: number;
}

/**
 * Duration and frame size of a WebM file from its head: the EBML header (DocType webm or
 * matroska), then Segment → Info (TimecodeScale, Duration) and Tracks → the first video
 * TrackEntry's Video (PixelWidth, PixelHeight), stopping at the first Cluster.
 * A file without Duration (a browser's MediaRecorder writes none) answers no duration.
 *
 * Written here rather than taken from a library: the EBML readers on npm are unmaintained (`ebml`,
 * `matroska`), pull a command-line tool in (`ts-ebml`), or (`music-metadata`, well kept) weigh about
 * 240 KB bundled and refuse a file's head alone, needing the whole file or a request per Cluster.
 */
export async function readWebm(source: ByteSource): Promise<VideoFacts> {
  const head = await source.read(0, Math.min(source.size, HEAD_BYTES));
  const reader = new ElementReader(head);
  const ebml = reader.header(0);
  if (ebml?.id !== ID.ebml || ebml.size === undefined) throw new UnreadableVideoError('No EBML header.');
  const docType = reader.child(ebml, ID.docType);
  const docTypeName = docType && reader.text(docType);
  if (docTypeName !== 'webm' && docTypeName !== 'matroska') {
    throw new UnreadableVideoError(`Not a WebM file (DocType ${docTypeName ?? 'missing'}).`);
  }
  const segment = reader.header(ebml.dataStart + ebml.size);
  if (segment?.id !== ID.segment) throw new UnreadableVideoError('No Segment after the EBML header.');

  let scale: number | undefined;
  let duration: number | undefined;
  const tracks: Track[] = [];
  let position = segment.dataStart;
  while (position < head.length) {
    const element = reader.header(position);
    if (!element || element.id === ID.cluster) break;
    if (MASTERS.has(element.id)) {
      if (element.id === ID.trackEntry) tracks.push({});
      position = element.dataStart; // step into it: its children come next
      continue;
    }
    if (element.size === undefined) break;
    const track = tracks.at(-1);
    switch (element.id) {
      case ID.timecodeScale:
        scale = reader.uint(element);
        break;
      case ID.duration:
        duration = reader.float(element);
        break;
      case ID.trackType:
      case ID.pixelWidth:
      case ID.pixelHeight:
        if (track) track[TRACK_FIELD[element.id]] = reader.uint(element);
        break;
    }
    position = element.dataStart + element.size;
  }
  const seconds =
    duration !== undefined && duration > 0
      ? (duration * (scale ?? DEFAULT_TIMECODE_SCALE_NS)) / 1e9
      : undefined;
  const video = tracks.find((track) => track.type === VIDEO_TRACK);
  const width = video?.pixelWidth;
  const height = video?.pixelHeight;
  return {
    ...(seconds !== undefined && Number.isFinite(seconds) && { durationSeconds: seconds }),
    ...(width && height && { width, height }),
  };
}

/** Reads EBML element headers and values out of a buffer; undefined where the buffer ends first. */
class ElementReader {
  constructor(private readonly bytes: Uint8Array) {}

  header(position: number): Header | undefined {
    const id = this.vint(position, true);
    if (!id) return undefined;
    const size = this.vint(position + id.length, false);
    if (!size) return undefined;
    return {
      id: id.value,
      size: size.unknown ? undefined : size.value,
      dataStart: position + id.length + size.length,
    };
  }

  /** The first child of `parent` with this id (parent of known size, within the buffer). */
  child(parent: Header, id: number): Header | undefined {
    const end = parent.dataStart + (parent.size ?? 0);
    let position = parent.dataStart;
    while (position < end) {
      const element = this.header(position);
      if (!element || element.size === undefined) return undefined;
      if (element.id === id) return element;
      position = element.dataStart + element.size;
    }
    return undefined;
  }

  uint(element: Header): number | undefined {
    const data = this.data(element);
    if (!data || data.length > 6) return undefined;
    return data.reduce((value, byte) => value * 256 + byte, 0);
  }

  float(element: Header): number | undefined {
    const data = this.data(element);
    if (!data) return undefined;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (data.length === 4) return view.getFloat32(0);
    if (data.length === 8) return view.getFloat64(0);
    return undefined;
  }

  text(element: Header): string | undefined {
    const data = this.data(element);
    return data && new TextDecoder().decode(data).replace(/\0+$/, '');
  }

  private data(element: Header): Uint8Array | undefined {
    if (element.size === undefined || element.dataStart + element.size > this.bytes.length) return undefined;
    return this.bytes.subarray(element.dataStart, element.dataStart + element.size);
  }

  /**
   * A variable-length integer: its first byte's leading zeros say how many bytes follow. An id keeps
   * its marker bit (ids are written that way); a size drops it, and all ones means "unknown".
   */
  private vint(
    position: number,
    keepMarker: boolean,
  ): { value: number; length: number; unknown: boolean } | undefined {
    const first = this.bytes[position];
    if (first === undefined || first === 0) return undefined;
    const length = Math.clz32(first) - 23;
    if (position + length > this.bytes.length) return undefined;
    let value = keepMarker ? first : first & (0xff >> length);
    let allOnes = value === 0xff >> length;
    for (let i = 1; i < length; i += 1) {
      const byte = this.bytes[position + i] ?? 0;
      value = value * 256 + byte;
      allOnes &&= byte === 0xff;
    }
    return { value, length, unknown: !keepMarker && allOnes };
  }
}
