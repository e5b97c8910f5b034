import type { LookupOutcome, LookupRequest } from '../../ports/connector.js';
import { type TikTokApi, tiktokPostUrl, tiktokProfileUrl } from './api.js';
import { readProgress } from './progress.js';
import { fetchStatus } from './status.js';

const unknown = (message: string): LookupOutcome => ({ kind: 'unknown', message });

/**
 * Whether TikTok has the post, by the publish id the attempt kept (status/fetch):
 * - PUBLISH_COMPLETE: `found`;
 * - FAILED, or still uploading or processing: `not_found`. Safe, because the retry that follows
 *   carries the same progress: it never inits again while the publish id is known; it resumes the
 *   upload or keeps polling that same publish id;
 * - no publish id (the init's answer was lost): a video cannot have been published, since its
 *   bytes go only to the upload URL that answer carried: `not_found`. Photos TikTok pulls by
 *   itself, so a lost photo init is `unknown` (the post fails delivery_uncertain, never posted twice).
 */
export function makeTikTokLookUp(deps: { api: TikTokApi }) {
  return async function findPublished(request: LookupRequest): Promise<LookupOutcome> {
    const progress = readProgress(request.progress);
    if (!progress?.publishId) {
      if (progress?.kind === 'video') return { kind: 'not_found' };
      return unknown('No TikTok publish id was recorded for this post, so TikTok cannot be asked about it.');
    }
    if (!request.credentials)
      return unknown('The TikTok account has no access token to look the post up with.');
    try {
      const status = await fetchStatus(
        deps.api,
        request.credentials.accessToken,
        progress.publishId,
        request.signal,
      );
      if (status.status !== 'PUBLISH_COMPLETE') return { kind: 'not_found' };
      const handle = progress.handle ?? request.account.handle;
      return status.postId
        ? {
            kind: 'found',
            platformPostId: status.postId,
            platformPostUrl: tiktokPostUrl(handle, progress.kind, status.postId),
          }
        : { kind: 'found', platformPostId: progress.publishId, platformPostUrl: tiktokProfileUrl(handle) };
    } catch {
      return unknown('TikTok did not answer the status look-up.');
    }
  };
}
