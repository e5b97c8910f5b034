import { createHash } from 'node:crypto';
import { type Handler, type RouteContext, xrpcError } from './context.js';
import type { FakeVideoJob } from './store.js';

/** The service token of a request (`Authorization: Bearer`), for `aud` and `lxm`, or undefined. */
function serviceCaller(context: RouteContext, aud: string, lxm: string): string | undefined {
  const header = context.headers.authorization ?? '';
  const token = context.store.serviceTokens.get(header.replace(/^Bearer /, ''));
  if (!token || token.expiresAt <= context.settings.now() || token.aud !== aud || token.lxm !== lxm)
    return undefined;
  return token.did;
}

const host = (context: RouteContext) => `did:web:${new URL(context.baseUrl).hostname}`;

function jobStatus(job: FakeVideoJob, completed: boolean) {
  if (job.failureCode)
    return { jobId: job.jobId, did: job.did, state: 'JOB_STATE_FAILED', error: job.failureCode };
  if (!completed) return { jobId: job.jobId, did: job.did, state: 'JOB_STATE_ENCODING', progress: 50 };
  const { blob } = job;
  return {
    jobId: job.jobId,
    did: job.did,
    state: 'JOB_STATE_COMPLETED',
    blob: { $type: 'blob', ref: { $link: blob.cid }, mimeType: blob.mimeType, size: blob.size },
  };
}

/** GET app.bsky.video.getUploadLimits: needs a service token for the video service itself. */
export const getUploadLimits: Handler = (context) => {
  const did = serviceCaller(context, host(context), 'app.bsky.video.getUploadLimits');
  if (!did) return xrpcError(401, 'AuthMissing', 'Authentication Required');
  const left = context.store.users.get(did)?.videosLeftToday ?? 25;
  return left > 0
    ? {
        status: 200,
        json: { canUpload: true, remainingDailyVideos: left, remainingDailyBytes: 10_000_000_000 },
      }
    : {
        status: 200,
        json: {
          canUpload: false,
          remainingDailyVideos: 0,
          message: 'You have reached your daily upload limit',
        },
      };
};

/**
 * POST app.bsky.video.uploadVideo?did&name: the mp4 as the body, with a service token of the
 * user's PDS for `com.atproto.repo.uploadBlob` (its `aud` is the PDS's did:web). Answers the job.
 */
export const uploadVideo: Handler = (context) => {
  const did = serviceCaller(context, host(context), 'com.atproto.repo.uploadBlob');
  if (!did || context.url.searchParams.get('did') !== did)
    return xrpcError(401, 'AuthMissing', 'Authentication Required');
  if (context.headers['content-type'] !== 'video/mp4')
    return xrpcError(400, 'InvalidRequest', 'Unsupported content type');
  if (context.body.length > context.settings.maxBlobBytes)
    return xrpcError(413, 'PayloadTooLarge', 'request entity too large');
  const user = context.store.users.get(did);
  if (user && user.videosLeftToday !== undefined) user.videosLeftToday -= 1;
  const cid = `bafkrei${createHash('sha256').update(context.body).digest('hex').slice(0, 52)}`;
  const blob = {
    did,
    cid,
    mimeType: 'video/mp4',
    size: context.body.length,
    uploadedAt: context.settings.now(),
  };
  const job: FakeVideoJob = {
    jobId: `job-${context.store.secret(10)}`,
    did,
    blob,
    pollsLeft: context.settings.videoPolls,
    ...(context.control.videoFailure && { failureCode: context.control.videoFailure }),
  };
  context.store.jobs.set(job.jobId, job);
  return { status: 200, json: { jobStatus: jobStatus(job, false) } };
};

/** GET app.bsky.video.getJobStatus?jobId: in progress for a few polls, then COMPLETED with the blob (on the PDS). */
export const getJobStatus: Handler = (context) => {
  const job = context.store.jobs.get(context.url.searchParams.get('jobId') ?? '');
  if (!job) return xrpcError(400, 'InvalidRequest', 'Job not found');
  job.pollsLeft -= 1;
  const completed = job.pollsLeft < 0;
  // Once processed, the video service puts the blob on the user's PDS.
  if (completed && !job.failureCode)
    context.store.blobs.set(job.blob.cid, { ...job.blob, uploadedAt: context.settings.now() });
  return { status: 200, json: { jobStatus: jobStatus(job, completed) } };
};
