import type { ISOFile, Movie } from 'mp4box';
import type { VideoFacts } from '../../domain/media.js';
import { type ByteSource, UnreadableVideoError } from './byte-source.js';

/** The first read: a faststart file's ftyp and moov (its headers) usually fit in it. */
const FIRST_READ_BYTES = 64 * 1024;
/** Each read doubles, up to this: a long video's moov (its sample tables) can be a few MB. */
const LARGEST_READ_BYTES = 4 * 1024 * 1024;
/** Past these the file is not a movie we can read cheaply: its duration stays unknown. */
const MAX_BYTES_READ = 32 * 1024 * 1024;
const MAX_READS = 32;

type Appendable = Parameters<ISOFile['appendBuffer']>[0];

/**
 * Duration and frame size of an MP4 or QuickTime movie, through GPAC's mp4box.js: it is fed the
 * file a range at a time and says where to read next, so the media data (mdat, nearly the whole
 * file, before or after the moov box) is skipped, not read. The movie header (mvhd) gives the
 * duration; the first video track's header (tkhd) the size, turned by its rotation matrix (a phone's
 * portrait video is stored landscape and rotated on playback).
 */
export async function readIsoBmff(source: ByteSource): Promise<VideoFacts> {
  // Loaded on first use: every function that touches the media bucket bundles the probe, and only
  // confirms, imports and deliveries of a video need the parser evaluated.
  const { createFile } = await import('mp4box');
  const file = createFile();
  let movie: Movie | undefined;
  let failure: string | undefined;
  file.onReady = (info) => {
    movie = info;
  };
  file.onError = (_module, message) => {
    failure = message;
  };
  let position = 0;
  let readSize = FIRST_READ_BYTES;
  let bytesRead = 0;
  for (let reads = 0; !movie && !failure && position < source.size; reads += 1) {
    if (reads >= MAX_READS || bytesRead >= MAX_BYTES_READ) {
      throw new UnreadableVideoError('No movie header within the bytes a probe may read.');
    }
    const end = Math.min(source.size, position + readSize);
    const bytes = await source.read(position, end);
    const chunk = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as Appendable;
    chunk.fileStart = position;
    const next = file.appendBuffer(chunk, end === source.size);
    bytesRead += bytes.length;
    // mp4box names the next byte it needs: past the media data when it has just seen an mdat header.
    position = next > position ? next : end;
    readSize = Math.min(readSize * 2, LARGEST_READ_BYTES);
  }
  if (!movie) throw new UnreadableVideoError(failure ?? 'No movie header (moov) in the file.');
  return factsOf(movie);
}

function factsOf(movie: Movie): VideoFacts {
  const fragmented = movie.fragment_duration;
  const seconds =
    movie.duration > 0 && movie.timescale > 0
      ? movie.duration / movie.timescale
      : fragmented && fragmented.den > 0
        ? fragmented.num / fragmented.den
        : undefined;
  const track = movie.videoTracks[0];
  const width = track?.track_width || track?.video?.width;
  const height = track?.track_height || track?.video?.height;
  // A matrix whose a and d are 0 turns the picture a quarter: what is shown is height × width.
  const quarterTurn = track !== undefined && track.matrix[0] === 0 && track.matrix[4] === 0;
  return {
    ...(seconds !== undefined && Number.isFinite(seconds) && { durationSeconds: seconds }),
    ...(width && height && (quarterTurn ? { width: height, height: width } : { width, height })),
  };
}
