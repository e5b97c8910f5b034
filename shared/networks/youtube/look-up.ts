import type { PostWarning } from '../../domain/posts.js';
import type { LookupOutcome, LookupRequest } from '../../ports/connector.js';
import { settleInterrupted, stepsLeft, stepWarnings } from './after-publish.js';
import { type YouTubeApi, youTubeVideoUrl } from './api.js';
import { afterPublishPlan, uploadMetadata } from './options.js';
import { readProgress, type YouTubeProgress } from './progress.js';
import { recentUploads } from './recent-uploads.js';
import { receivedSoFar, UploadSessionGone } from './resumable-upload.js';
import { visibilityWarnings } from './visibility.js';

/** Clock skew allowed between the post's creation here and YouTube's upload time. */
const SKEW_MS = 5 * 60 * 1000;

const found = (videoId: string, warnings: PostWarning[] = []): LookupOutcome => ({
  kind: 'found',
  platformPostId: videoId,
  platformPostUrl: youTubeVideoUrl(videoId),
  ...(warnings.length > 0 && { warnings }),
});

/**
 * Whether YouTube has the video an attempt with no answer was uploading:
 * - a video id in progress: it has it;
 * - an upload session in progress is asked for its status: the video resource (200/201) means the
 *   whole file arrived and the video exists; a 308 means it did not, and a session that never
 *   completed makes no video (`not_found`: the retry continues that session);
 * - no session (a worker that died before handing over) or one YouTube no longer knows: the
 *   channel's latest uploads are read for a video with the post's title uploaded since the post
 *   was created (`found`); not seeing one is `unknown`, never `not_found`, because the listing
 *   may lag behind an upload and a wrong `not_found` would upload the video twice.
 */
export function makeYouTubeLookUp(deps: {
  api: YouTubeApi;
  apiUrl: string;
  uploadUrl: string;
  now: () => number;
}) {
  return async function findPublished(request: LookupRequest): Promise<LookupOutcome> {
    const progress = readProgress(request.progress);
    if (progress?.state === 'processing') return foundProcessed(request, progress, deps);
    if (!request.credentials) return { kind: 'unknown', message: 'The YouTube account has no access token.' };
    const context = {
      api: deps.api,
      accessToken: request.credentials.accessToken,
      signal: request.signal,
      uploadUrl: deps.uploadUrl,
      apiUrl: deps.apiUrl,
      now: deps.now,
    };
    try {
      if (progress) {
        try {
          const state = await receivedSoFar(context, progress.session, progress.total);
          return state.kind === 'done' ? found(state.videoId) : { kind: 'not_found' };
        } catch (error) {
          if (!(error instanceof UploadSessionGone)) throw error;
        }
      }
      const metadata = uploadMetadata(request.post);
      const uploads = await recentUploads(context);
      if (!uploads || 'invalid' in metadata) {
        return { kind: 'unknown', message: "YouTube did not list the channel's uploads." };
      }
      const since = Date.parse(request.post.createdAt) - SKEW_MS;
      const match = uploads.find(
        (upload) =>
          upload.title === metadata.resource.snippet.title && Date.parse(upload.publishedAt) >= since,
      );
      return match
        ? found(match.videoId)
        : { kind: 'unknown', message: "No upload of this post is among the channel's latest uploads yet." };
    } catch {
      return { kind: 'unknown', message: 'YouTube did not say whether it has the video.' };
    }
  };
}

/**
 * The video is YouTube's (the whole file arrived): found, with what the caller should know. The
 * steps after the upload that the interrupted attempt left unsettled are not made from a look-up:
 * a playlist or captions insert that may have been sent is looked up, the rest is said in warnings
 * (after-publish.ts settleInterrupted).
 */
async function foundProcessed(
  request: LookupRequest,
  progress: Extract<YouTubeProgress, { state: 'processing' }>,
  deps: { api: YouTubeApi; apiUrl: string; uploadUrl: string; now: () => number },
): Promise<LookupOutcome> {
  const plan = afterPublishPlan(request.post, undefined);
  let steps = progress.steps ?? {};
  if (stepsLeft(plan, steps)) {
    const context = request.credentials && {
      api: deps.api,
      apiUrl: deps.apiUrl,
      uploadUrl: deps.uploadUrl,
      accessToken: request.credentials.accessToken,
      signal: request.signal,
    };
    steps = await settleInterrupted(context, progress.videoId, plan, steps);
  }
  const metadata = uploadMetadata(request.post);
  const visibility =
    'invalid' in metadata ? [] : visibilityWarnings(metadata, progress.privacyStatus, deps.now());
  return found(progress.videoId, [...visibility, ...stepWarnings(plan, steps)]);
}
