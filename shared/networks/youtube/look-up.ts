import type { LookupOutcome, LookupRequest } from '../../ports/connector.js';
import { type YouTubeApi, youTubeVideoUrl } from './api.js';
import { readProgress } from './progress.js';
import { receivedSoFar } from './resumable-upload.js';

/**
 * Whether YouTube has the video an attempt with no answer was uploading, from that attempt's
 * progress: a video id means it has it (processing or not); an upload session is asked for its
 * status: the video resource (200/201) means the whole file arrived and the video exists; a 308
 * means it did not, and a session that never completed makes no video. Without a session or a
 * video id the service cannot tell which video on the channel would be this post's: `unknown`.
 */
export function makeYouTubeLookUp(deps: { api: YouTubeApi; uploadUrl: string; now: () => number }) {
  return async function findPublished(request: LookupRequest): Promise<LookupOutcome> {
    const progress = readProgress(request.progress);
    if (!progress) {
      return {
        kind: 'unknown',
        message: 'No upload session was recorded, so YouTube cannot be asked about this post.',
      };
    }
    if (progress.state === 'processing') {
      return {
        kind: 'found',
        platformPostId: progress.videoId,
        platformPostUrl: youTubeVideoUrl(progress.videoId),
      };
    }
    if (!request.credentials) return { kind: 'unknown', message: 'The YouTube account has no access token.' };
    try {
      const state = await receivedSoFar(
        {
          api: deps.api,
          accessToken: request.credentials.accessToken,
          signal: request.signal,
          uploadUrl: deps.uploadUrl,
          now: deps.now,
        },
        progress.session,
        progress.total,
      );
      if (state.kind === 'done') {
        return {
          kind: 'found',
          platformPostId: state.videoId,
          platformPostUrl: youTubeVideoUrl(state.videoId),
        };
      }
      return { kind: 'not_found' };
    } catch {
      return { kind: 'unknown', message: 'YouTube did not say whether the upload session finished.' };
    }
  };
}
