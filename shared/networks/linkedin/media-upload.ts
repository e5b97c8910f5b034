import * as z from 'zod';
import type { DeliveryMedia } from '../../ports/connector.js';
import type { MediaBytes } from '../../ports/media-bytes.js';
import { type LinkedInApi, readJson, type SizedStream } from './api.js';
import { unreadable } from './author.js';
import { failOnError, LinkedInStepFailed } from './errors.js';
import { LINKEDIN_MAX_BYTES } from './limits.js';

/**
 * Uploads to LinkedIn's Images, Videos and Documents APIs (networks/linkedin.md §3–5): initialize
 * (an upload URL and the media's URN), then the bytes, read from the media bucket a piece at a
 * time, never whole in memory.
 */
export interface UploadContext {
  api: LinkedInApi;
  accessToken: string;
  /** The URN that will author the post: media must be owned by it. */
  owner: string;
  bytes: MediaBytes;
  signal: AbortSignal;
}

export type MediaKindOnLinkedIn = DeliveryMedia['kind'];
export type ProcessingStatus = 'AVAILABLE' | 'PROCESSING' | 'PROCESSING_FAILED' | 'WAITING_UPLOAD';

const SingleUpload = z.object({
  value: z.object({
    uploadUrl: z.string().min(1),
    image: z.string().optional(),
    document: z.string().optional(),
  }),
});

const VideoUpload = z.object({
  value: z.object({
    video: z.string(),
    uploadToken: z.string().optional().default(''),
    uploadInstructions: z
      .array(
        z.object({
          uploadUrl: z.string().min(1),
          firstByte: z.number().int().nonnegative(),
          lastByte: z.number().int().nonnegative(),
        }),
      )
      .min(1),
  }),
});

const StatusAnswer = z.object({ status: z.string() });

const RESOURCE: Readonly<Record<MediaKindOnLinkedIn, string>> = {
  image: 'images',
  video: 'videos',
  document: 'documents',
};

/** The object key of a delivered media item; every item is in the bucket by delivery time. */
function objectKeyOf(media: DeliveryMedia): { key: string; size: number } {
  const key = media.stored?.objectKey;
  if (!key || media.stored?.sizeBytes === undefined) {
    throw new LinkedInStepFailed({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_UNAVAILABLE',
      message: 'A media item of the post has no stored bytes to upload.',
    });
  }
  return { key, size: media.stored.sizeBytes };
}

function assertSize(kind: MediaKindOnLinkedIn, size: number): void {
  const limit = kind === 'image' ? undefined : LINKEDIN_MAX_BYTES[kind];
  if (limit !== undefined && size > limit) {
    throw new LinkedInStepFailed({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_TOO_LARGE',
      message: `LinkedIn takes a ${kind} of at most ${limit / (1024 * 1024)} MB.`,
    });
  }
}

/**
 * Images and documents: one initializeUpload, one PUT of the whole file (streamed, with its stored
 * size as Content-Length: LinkedIn's upload URLs refuse a chunked body). Returns the
 * media URN. A document is then processed by LinkedIn (see `processingStatus`); an image is usable.
 */
export async function uploadWhole(
  context: UploadContext,
  media: DeliveryMedia & { kind: 'image' | 'document' },
): Promise<string> {
  const { key, size } = objectKeyOf(media);
  assertSize(media.kind, size);
  return initializeAndPut(context, media.kind, async () => ({
    stream: await context.bytes.stream(key, context.signal),
    length: size,
  }));
}

/**
 * An image whose bytes are already in memory (a link card's og:image, read at most a few MB by
 * the link-preview reader), uploaded as `uploadWhole` does a stored one. Returns its URN.
 */
export function uploadImageBytes(context: Omit<UploadContext, 'bytes'>, bytes: Uint8Array): Promise<string> {
  return initializeAndPut(context, 'image', async () => bytes);
}

/** initializeUpload for the owner, then one PUT of the body to the URL LinkedIn handed out. */
async function initializeAndPut(
  context: Omit<UploadContext, 'bytes'>,
  kind: 'image' | 'document',
  body: () => Promise<Uint8Array | SizedStream>,
): Promise<string> {
  const init = await context.api({
    method: 'POST',
    path: `/rest/${RESOURCE[kind]}`,
    query: { action: 'initializeUpload' },
    json: { initializeUploadRequest: { owner: context.owner } },
    ...auth(context),
  });
  await failOnError(init, 'media');
  const parsed = SingleUpload.safeParse(await readJson(init));
  const urn = kind === 'image' ? parsed.data?.value.image : parsed.data?.value.document;
  if (!parsed.success || !urn) throw unreadable('a media upload');
  const put = await context.api({
    method: 'PUT',
    path: parsed.data.value.uploadUrl,
    bytes: await body(),
    ...auth(context),
  });
  await failOnError(put, 'media');
  await drain(put);
  return urn;
}

/**
 * A video: initializeUpload with its size, one PUT per upload instruction (the byte range LinkedIn
 * chose, read from the bucket just for that part), each part's ETag kept in order, then
 * finalizeUpload with all of them. Returns the video URN; LinkedIn then processes it.
 */
export async function uploadVideo(context: UploadContext, media: DeliveryMedia): Promise<string> {
  const { key, size } = objectKeyOf(media);
  assertSize('video', size);
  const init = await context.api({
    method: 'POST',
    path: '/rest/videos',
    query: { action: 'initializeUpload' },
    json: {
      initializeUploadRequest: {
        owner: context.owner,
        fileSizeBytes: size,
        uploadCaptions: false,
        uploadThumbnail: false,
      },
    },
    ...auth(context),
  });
  await failOnError(init, 'media');
  const parsed = VideoUpload.safeParse(await readJson(init));
  if (!parsed.success) throw unreadable('a video upload');
  const { video, uploadToken, uploadInstructions } = parsed.data.value;
  const parts = [...uploadInstructions].sort((a, b) => a.firstByte - b.firstByte);
  const etags: string[] = [];
  for (const part of parts) {
    if (part.lastByte < part.firstByte || part.lastByte >= size) throw unreadable('a video upload');
    const chunk = await context.bytes.readRange(key, part.firstByte, part.lastByte + 1, context.signal);
    const put = await context.api({ method: 'PUT', path: part.uploadUrl, bytes: chunk, ...auth(context) });
    await failOnError(put, 'media');
    await drain(put);
    const etag = put.headers.get('etag');
    if (!etag) throw unreadable('a video part upload');
    etags.push(etag);
  }
  const finalize = await context.api({
    method: 'POST',
    path: '/rest/videos',
    query: { action: 'finalizeUpload' },
    json: { finalizeUploadRequest: { video, uploadToken, uploadedPartIds: etags } },
    ...auth(context),
  });
  await failOnError(finalize, 'media');
  return video;
}

/** Where LinkedIn is with an uploaded video or document (`GET /rest/videos/{urn}`, `/rest/documents/{urn}`). */
export async function processingStatus(
  context: Omit<UploadContext, 'owner' | 'bytes'>,
  kind: 'video' | 'document',
  urn: string,
): Promise<ProcessingStatus> {
  const response = await context.api({
    method: 'GET',
    path: `/rest/${RESOURCE[kind]}/${encodeURIComponent(urn)}`,
    ...auth(context),
  });
  await failOnError(response, 'media');
  const parsed = StatusAnswer.safeParse(await readJson(response));
  if (!parsed.success) throw unreadable('a media status check');
  const status = parsed.data.status;
  // Anything else LinkedIn may add later (a new intermediate state) is treated as still processing.
  return status === 'AVAILABLE' || status === 'PROCESSING_FAILED' || status === 'WAITING_UPLOAD'
    ? status
    : 'PROCESSING';
}

/** Reads the (empty) body of an upload's answer, so its connection is free for the next request. */
async function drain(response: Response): Promise<void> {
  await response.arrayBuffer().catch(() => undefined);
}

function auth(context: { accessToken: string; signal: AbortSignal }) {
  return { accessToken: context.accessToken, signal: context.signal };
}
