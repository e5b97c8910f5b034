import * as z from 'zod';
import type { DeliveryMedia } from '../../ports/connector.js';
import type { MediaBytes } from '../../ports/media-bytes.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { type FailedOutcome, failed, failureOfAnswer } from './errors.js';
import { BLUESKY_MAX_IMAGE_BYTES, BLUESKY_MAX_VIDEO_BYTES, BLUESKY_SERVICE_TOKEN_SECONDS } from './limits.js';
import { isPdsAddressRefusal } from './pds-fetch.js';
import { type Blob, blobSchema } from './progress.js';
import { callXrpc, type XrpcCaller } from './xrpc.js';

export interface MediaContext {
  /** The account's PDS, with the session's DPoP. */
  pds: XrpcCaller;
  did: string;
  /** BLUESKY_VIDEO_URL. */
  videoUrl: string;
  bytes?: MediaBytes;
  now: () => number;
}

/** Where a video stands at the video service. */
export type VideoStep =
  | { kind: 'ready'; blob: Blob }
  | { kind: 'processing'; jobId: string }
  | { kind: 'failed'; outcome: FailedOutcome };

const uploaded = z.object({ blob: blobSchema });
const jobStatus = z.object({
  jobId: z.string().min(1),
  state: z.string(),
  blob: blobSchema.optional(),
  error: z.string().optional(),
});
/** The lexicon wraps it in `jobStatus`; the tutorial reads it at the top level (research open question 3): both. */
const jobAnswer = z.union([
  z.object({ jobStatus }),
  jobStatus.transform((status) => ({ jobStatus: status })),
]);
const serviceToken = z.object({ token: z.string().min(1) });
const uploadLimits = z.object({ canUpload: z.boolean() });

/** Failed reads of storage and unanswered uploads: nothing was posted, so they are retried. */
function mediaError(error: unknown): FailedOutcome {
  if (isPdsAddressRefusal(error)) return failed('auth_revoked', 'PDS_ADDRESS_REFUSED', 'pds_address_refused');
  if (error instanceof RequestNotSentError) return failed('transient', 'PLATFORM_UNREACHABLE', error.code);
  if (error instanceof NoAnswerError) return failed('transient', 'PLATFORM_ERROR', error.code);
  return failed('transient', 'MEDIA_UNAVAILABLE');
}

/**
 * An image as a blob on the account's PDS (`com.atproto.repo.uploadBlob`, research §2b): the raw
 * bytes, at most 1,000,000 (checked here, as the PDS checks only when the post references it).
 */
export async function uploadImage(
  context: MediaContext,
  media: DeliveryMedia,
): Promise<Blob | FailedOutcome> {
  const stored = media.stored;
  if (!stored?.objectKey || !context.bytes) return failed('permanent', 'MEDIA_UNAVAILABLE');
  if (stored.sizeBytes > BLUESKY_MAX_IMAGE_BYTES) return failed('permanent', 'MEDIA_TOO_LARGE');
  try {
    const body = await context.bytes.readRange(stored.objectKey, 0, stored.sizeBytes, context.pds.signal);
    const answer = await callXrpc(context.pds, {
      method: 'POST',
      nsid: 'com.atproto.repo.uploadBlob',
      bytes: { body, contentType: stored.mimeType, length: body.byteLength },
    });
    if (!answer.ok) return failureOfAnswer(answer, context.now(), true);
    const parsed = uploaded.safeParse(answer.body);
    return parsed.success ? parsed.data.blob : failed('transient', 'PLATFORM_BAD_ANSWER');
  } catch (error) {
    return mediaError(error);
  }
}

/** A service token of the PDS for the video service (`com.atproto.server.getServiceAuth`). */
async function serviceAuth(context: MediaContext, aud: string, lxm: string): Promise<string | FailedOutcome> {
  const exp = Math.floor(context.now() / 1000) + BLUESKY_SERVICE_TOKEN_SECONDS;
  const answer = await callXrpc(context.pds, {
    method: 'GET',
    nsid: 'com.atproto.server.getServiceAuth',
    query: { aud, lxm, exp: String(exp) },
  });
  if (!answer.ok) return failureOfAnswer(answer, context.now());
  return serviceToken.safeParse(answer.body).data?.token ?? failed('transient', 'PLATFORM_BAD_ANSWER');
}

/**
 * A video through Bluesky's video service (research §2c): the daily allowance asked first
 * (`getUploadLimits`), then the file sent to `uploadVideo` with a service token for the PDS's own
 * DID; the job is then polled (`getJobStatus`) on later attempts until it holds the blob.
 */
export async function startVideo(context: MediaContext, media: DeliveryMedia): Promise<VideoStep> {
  const stored = media.stored;
  if (!stored?.objectKey || !context.bytes)
    return { kind: 'failed', outcome: failed('permanent', 'MEDIA_UNAVAILABLE') };
  if (stored.sizeBytes > BLUESKY_MAX_VIDEO_BYTES)
    return { kind: 'failed', outcome: failed('permanent', 'MEDIA_TOO_LARGE') };
  const video = {
    serviceUrl: context.videoUrl,
    signal: context.pds.signal,
    ...(context.pds.fetch && { fetch: context.pds.fetch }),
  };
  try {
    const videoDid = `did:web:${new URL(context.videoUrl).hostname}`;
    const limitsToken = await serviceAuth(context, videoDid, 'app.bsky.video.getUploadLimits');
    if (typeof limitsToken !== 'string') return { kind: 'failed', outcome: limitsToken };
    const limits = await callXrpc(
      { ...video, accessToken: limitsToken },
      { method: 'GET', nsid: 'app.bsky.video.getUploadLimits' },
    );
    if (!limits.ok) return { kind: 'failed', outcome: failureOfAnswer(limits, context.now(), true) };
    if (uploadLimits.safeParse(limits.body).data?.canUpload === false) {
      return { kind: 'failed', outcome: failed('permanent', 'VIDEO_QUOTA_EXCEEDED') };
    }
    const pdsDid = `did:web:${new URL(context.pds.serviceUrl).hostname}`;
    const token = await serviceAuth(context, pdsDid, 'com.atproto.repo.uploadBlob');
    if (typeof token !== 'string') return { kind: 'failed', outcome: token };
    const body = await context.bytes.stream(stored.objectKey, context.pds.signal);
    const answer = await callXrpc(
      { ...video, accessToken: token },
      {
        method: 'POST',
        nsid: 'app.bsky.video.uploadVideo',
        query: { did: context.did, name: `${stored.mediaId ?? 'video'}.mp4` },
        bytes: { body, contentType: stored.mimeType, length: stored.sizeBytes },
      },
    );
    const job = jobAnswer.safeParse(answer.body).data?.jobStatus;
    // A file processed before answers `already_exists` with its blob: the blob decides (tutorial note).
    if (job?.blob) return { kind: 'ready', blob: job.blob };
    if (!answer.ok) return { kind: 'failed', outcome: failureOfAnswer(answer, context.now(), true) };
    if (!job) return { kind: 'failed', outcome: failed('transient', 'PLATFORM_BAD_ANSWER') };
    return { kind: 'processing', jobId: job.jobId };
  } catch (error) {
    return { kind: 'failed', outcome: mediaError(error) };
  }
}

const FAILED_FOR_GOOD = new Set([
  'validation_failure',
  'encoding_failure',
  'pds_upload_unsupported_blob_size',
]);

/** The job's state (`app.bsky.video.getJobStatus`): its blob once COMPLETED, a failure once FAILED. */
export async function checkVideo(context: MediaContext, jobId: string): Promise<VideoStep> {
  const video = {
    serviceUrl: context.videoUrl,
    signal: context.pds.signal,
    ...(context.pds.fetch && { fetch: context.pds.fetch }),
  };
  try {
    const answer = await callXrpc(video, {
      method: 'GET',
      nsid: 'app.bsky.video.getJobStatus',
      query: { jobId },
    });
    if (!answer.ok) return { kind: 'failed', outcome: failureOfAnswer(answer, context.now(), true) };
    const job = jobAnswer.safeParse(answer.body).data?.jobStatus;
    if (!job) return { kind: 'failed', outcome: failed('transient', 'PLATFORM_BAD_ANSWER') };
    if (job.blob) return { kind: 'ready', blob: job.blob };
    if (job.state === 'JOB_STATE_FAILED') {
      const code = job.error ?? 'generic_failure';
      return {
        kind: 'failed',
        outcome: failed(
          FAILED_FOR_GOOD.has(code) ? 'permanent' : 'transient',
          'MEDIA_PROCESSING_FAILED',
          code,
        ),
      };
    }
    return { kind: 'processing', jobId };
  } catch (error) {
    return { kind: 'failed', outcome: mediaError(error) };
  }
}
