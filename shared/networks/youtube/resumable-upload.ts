import type { MediaBytes } from '../../ports/media-bytes.js';
import { isRecord, readJson, type YouTubeApi } from './api.js';
import { failureOf, readGoogleError, YouTubeStepFailed } from './errors.js';
import { YOUTUBE_CHUNK_UNIT } from './limits.js';
import type { YouTubeUploadMetadata } from './options.js';

/**
 * videos.insert by resumable upload (youtube.md §1): a session, then the file in chunks that are
 * multiples of 256 KiB, each read from storage as it is sent (never the whole file), and after any
 * interruption a status query (`Content-Range: bytes *\/total`) that says how much YouTube has, so
 * an upload continues where it stopped, in this invocation or the next.
 */
export interface UploadContext {
  api: YouTubeApi;
  accessToken: string;
  signal: AbortSignal;
  /** YOUTUBE_UPLOAD_URL. */
  uploadUrl: string;
  now: () => number;
}

export interface VideoFile {
  objectKey: string;
  total: number;
  mimeType: string;
}

/** Where an upload stands. */
/** `privacyStatus`: the visibility the insert's answer gave the video, when it said. */
export type UploadState =
  | { kind: 'done'; videoId: string; privacyStatus?: string }
  | { kind: 'at'; offset: number };

/** The session is gone (404/410, or expired): only a new session can continue. */
export class UploadSessionGone extends Error {
  override readonly name = 'UploadSessionGone';
}

/** Step 1: a session for the file; its URL is where every byte goes. */
export async function startSession(
  context: UploadContext,
  metadata: YouTubeUploadMetadata,
  file: VideoFile,
): Promise<string> {
  const response = await context.api({
    method: 'POST',
    url: `${context.uploadUrl}/videos`,
    accessToken: context.accessToken,
    query: {
      uploadType: 'resumable',
      part: 'snippet,status',
      ...(metadata.notifySubscribers !== undefined && {
        notifySubscribers: String(metadata.notifySubscribers),
      }),
    },
    headers: {
      'X-Upload-Content-Length': String(file.total),
      'X-Upload-Content-Type': file.mimeType.startsWith('video/')
        ? file.mimeType
        : 'application/octet-stream',
    },
    json: metadata.resource,
    signal: context.signal,
  });
  if (!response.ok) {
    throw new YouTubeStepFailed(failureOf(await readGoogleError(response), 'upload', context.now()));
  }
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (!location) {
    throw new YouTubeStepFailed({
      kind: 'failed',
      failure: 'transient',
      code: 'PLATFORM_ERROR',
      message: 'YouTube opened an upload session without saying where it is.',
    });
  }
  return new URL(location, context.uploadUrl).toString();
}

/** Step 3: how much of the file YouTube has (308 + Range), or the video when it has it all. */
export async function receivedSoFar(
  context: UploadContext,
  session: string,
  total: number,
): Promise<UploadState> {
  const response = await context.api({
    method: 'PUT',
    url: session,
    accessToken: context.accessToken,
    headers: { 'Content-Range': `bytes */${total}` },
    bytes: new Uint8Array(0),
    signal: context.signal,
  });
  return stateOf(context, response);
}

/**
 * Step 2: sends the rest of the file from `offset`, chunk by chunk, until YouTube has it all or
 * `keepGoing` says to stop (the invocation's time budget). YouTube may keep less of a chunk than
 * it was sent: its Range answer is where the next chunk starts.
 */
export async function sendFrom(
  context: UploadContext,
  session: string,
  file: VideoFile,
  from: number,
  chunk: { bytes: MediaBytes; size: number; keepGoing: () => boolean; onProgress: (offset: number) => void },
): Promise<UploadState> {
  const size = Math.max(YOUTUBE_CHUNK_UNIT, Math.floor(chunk.size / YOUTUBE_CHUNK_UNIT) * YOUTUBE_CHUNK_UNIT);
  let offset = from;
  for (;;) {
    const end = Math.min(file.total, offset + size);
    const bytes = await chunk.bytes.readRange(file.objectKey, offset, end, context.signal);
    const response = await context.api({
      method: 'PUT',
      url: session,
      accessToken: context.accessToken,
      headers: {
        'Content-Type': file.mimeType,
        'Content-Range': file.total === 0 ? `bytes */0` : `bytes ${offset}-${end - 1}/${file.total}`,
      },
      bytes,
      signal: context.signal,
    });
    const state = await stateOf(context, response);
    if (state.kind === 'done') return state;
    offset = state.offset;
    chunk.onProgress(offset);
    if (offset >= file.total || !chunk.keepGoing()) return state;
  }
}

async function stateOf(context: UploadContext, response: Response): Promise<UploadState> {
  if (response.status === 200 || response.status === 201) {
    const body = await readJson(response);
    if (isRecord(body) && typeof body.id === 'string' && body.id !== '') {
      const privacyStatus = isRecord(body.status) ? body.status.privacyStatus : undefined;
      return {
        kind: 'done',
        videoId: body.id,
        ...(typeof privacyStatus === 'string' && { privacyStatus }),
      };
    }
    throw new YouTubeStepFailed({
      kind: 'failed',
      failure: 'transient',
      code: 'PLATFORM_ERROR',
      message: 'YouTube finished the upload without naming the video.',
    });
  }
  if (response.status === 308) {
    await response.body?.cancel();
    const range = /^bytes=0-([0-9]+)$/.exec(response.headers.get('range') ?? '');
    return { kind: 'at', offset: range ? Number(range[1]) + 1 : 0 };
  }
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel();
    throw new UploadSessionGone('The upload session is gone.');
  }
  throw new YouTubeStepFailed(failureOf(await readGoogleError(response), 'upload', context.now()));
}
