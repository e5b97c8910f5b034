/**
 * Small, valid video files with a known duration and size, built byte by byte (no encoder on this
 * machine): the boxes of an MP4 or QuickTime movie, the elements of a WebM file. They carry no
 * decodable frames, which the probes never read: they read the container's headers only.
 */

const ascii = (text: string) => Buffer.from(text, 'latin1');

function u32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
}

function u16(value: number): Buffer {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(value);
  return out;
}

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  return Buffer.concat([u32(8 + body.length), ascii(type), body]);
}

function fullBox(type: string, version: number, flags: number, ...payload: Buffer[]): Buffer {
  return box(
    type,
    Buffer.from([version, (flags >> 16) & 0xff, (flags >> 8) & 0xff, flags & 0xff]),
    ...payload,
  );
}

const UNITY_MATRIX = Buffer.concat(
  [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].map((value) => u32(value)),
);

const QUARTER_TURN_MATRIX = Buffer.concat(
  [0, 0x00010000, 0, 0xffff0000, 0, 0, 0, 0, 0x40000000].map((value) => u32(value)),
);

export interface MovieOptions {
  durationSeconds: number;
  width?: number;
  height?: number;
  /** `mp4` (brand isom) or `mov` (brand "qt  "). */
  flavour?: 'mp4' | 'mov';
  /** Put the movie box after the media data, as cameras and unoptimised exports do. */
  moovLast?: boolean;
  /** Stored landscape and turned a quarter on playback, as a phone records a portrait video. */
  rotated?: boolean;
  /** Bytes of (empty) media data, to make the file as large as a test needs. */
  mediaBytes?: number;
}

/** An ISO-BMFF movie (MP4 or QuickTime) with one video track of `durationSeconds`. */
export function movieFile(options: MovieOptions): Buffer {
  const timescale = 1000;
  const duration = Math.round(options.durationSeconds * timescale);
  const width = options.width ?? 1280;
  const height = options.height ?? 720;
  const brand = options.flavour === 'mov' ? 'qt  ' : 'isom';
  const ftyp = box(
    'ftyp',
    ascii(brand),
    u32(512),
    ...(options.flavour === 'mov' ? ['qt  '] : ['isom', 'iso2', 'mp41']).map(ascii),
  );
  const mvhd = fullBox(
    'mvhd',
    0,
    0,
    u32(0),
    u32(0),
    u32(timescale),
    u32(duration),
    u32(0x00010000),
    u16(0x0100),
    Buffer.alloc(10),
    UNITY_MATRIX,
    Buffer.alloc(24),
    u32(2),
  );
  const tkhd = fullBox(
    'tkhd',
    0,
    3,
    u32(0),
    u32(0),
    u32(1),
    u32(0),
    u32(duration),
    Buffer.alloc(8),
    u16(0),
    u16(0),
    u16(0),
    u16(0),
    options.rotated ? QUARTER_TURN_MATRIX : UNITY_MATRIX,
    u32(width * 0x10000),
    u32(height * 0x10000),
  );
  const mdhd = fullBox('mdhd', 0, 0, u32(0), u32(0), u32(timescale), u32(duration), u16(0x55c4), u16(0));
  const hdlr = fullBox('hdlr', 0, 0, u32(0), ascii('vide'), Buffer.alloc(12), ascii('VideoHandler\0'));
  const sampleEntry = box(
    'avc1',
    Buffer.alloc(6),
    u16(1),
    Buffer.alloc(16),
    u16(width),
    u16(height),
    u32(0x00480000),
    u32(0x00480000),
    u32(0),
    u16(1),
    Buffer.alloc(32),
    u16(0x18),
    u16(0xffff),
  );
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), sampleEntry),
    fullBox('stts', 0, 0, u32(0)),
    fullBox('stsc', 0, 0, u32(0)),
    fullBox('stsz', 0, 0, u32(0), u32(0)),
    fullBox('stco', 0, 0, u32(0)),
  );
  const minf = box(
    'minf',
    fullBox('vmhd', 0, 1, Buffer.alloc(8)),
    box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1))),
    stbl,
  );
  const moov = box('moov', mvhd, box('trak', tkhd, box('mdia', mdhd, hdlr, minf)));
  const mdat = box('mdat', Buffer.alloc(options.mediaBytes ?? 16));
  return options.moovLast ? Buffer.concat([ftyp, mdat, moov]) : Buffer.concat([ftyp, moov, mdat]);
}

// EBML: an element is its id, its size as a variable-length integer, then its data.

function ebmlSize(size: number): Buffer {
  // 8-byte sizes always: simple and valid for any size a test needs.
  const out = Buffer.alloc(8);
  out.writeUInt8(0x01, 0);
  out.writeUIntBE(size, 2, 6);
  return out;
}

function element(id: number, ...data: Buffer[]): Buffer {
  const body = Buffer.concat(data);
  const idBytes = Buffer.from(
    id.toString(16).padStart(id > 0xffffff ? 8 : id > 0xffff ? 6 : id > 0xff ? 4 : 2, '0'),
    'hex',
  );
  return Buffer.concat([idBytes, ebmlSize(body.length), body]);
}

function uint(id: number, value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return element(id, out);
}

function float64(id: number, value: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeDoubleBE(value);
  return element(id, out);
}

/** The Segment's size when the writer did not know it (a live recording: MediaRecorder's files). */
const UNKNOWN_SIZE = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);

export interface WebmOptions {
  /** Left out: the file says no duration, as a browser's MediaRecorder writes it. */
  durationSeconds?: number;
  width?: number;
  height?: number;
  clusterBytes?: number;
}

/** A WebM file with one VP9 video track (Matroska elements: EBML header, Segment, Info, Tracks, a Cluster). */
export function webmFile(options: WebmOptions): Buffer {
  const header = element(
    0x1a45dfa3,
    uint(0x4286, 1),
    uint(0x42f7, 1),
    uint(0x42f2, 4),
    uint(0x42f3, 8),
    element(0x4282, ascii('webm')),
    uint(0x4287, 4),
    uint(0x4285, 2),
  );
  const info = element(
    0x1549a966,
    uint(0x2ad7b1, 1_000_000),
    ...(options.durationSeconds === undefined ? [] : [float64(0x4489, options.durationSeconds * 1000)]),
    element(0x4d80, ascii('test')),
    element(0x5741, ascii('test')),
  );
  const tracks = element(
    0x1654ae6b,
    element(
      0xae,
      uint(0xd7, 1),
      uint(0x73c5, 1),
      uint(0x83, 1),
      element(0x86, ascii('V_VP9')),
      element(0xe0, uint(0xb0, options.width ?? 1280), uint(0xba, options.height ?? 720)),
    ),
  );
  // A SimpleBlock: track 1 (0x81), timecode 0, keyframe, then the (empty) frame.
  const block = Buffer.concat([
    Buffer.from([0x81, 0x00, 0x00, 0x80]),
    Buffer.alloc(options.clusterBytes ?? 16),
  ]);
  const cluster = element(0x1f43b675, uint(0xe7, 0), element(0xa3, block));
  const segmentBody = Buffer.concat([info, tracks, cluster]);
  return Buffer.concat([header, Buffer.from([0x18, 0x53, 0x80, 0x67]), UNKNOWN_SIZE, segmentBody]);
}
