import { contentItems } from '../../domain/posts.js';
import type { LookupOutcome, LookupRequest } from '../../ports/connector.js';
import type { TikTokApi } from './api.js';
import { handedOver } from './inbox.js';
import { readTikTokOptions } from './options.js';
import { readProgress } from './progress.js';
import { publishedOutcome } from './published.js';
import { fetchStatus } from './status.js';

const unknown = (message: string): LookupOutcome => ({ kind: 'unknown', message });

/**
 * Whether TikTok has the post, by the publish id the attempt kept (status/fetch):
 * - PUBLISH_COMPLETE: `found`, or `found_without_id` for a public post moderation has not named
 *   yet (asked again later by the worker with the same progress: published.ts);
 * - SEND_TO_USER_INBOX for a post in inbox mode: `found_awaiting_creator` (the draft is in the
 *   creator's inbox, where the publish ends);
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
      const options = readTikTokOptions(request.post);
      const inbox = typeof options !== 'string' && options.mode === 'inbox';
      if (status.status === 'SEND_TO_USER_INBOX' && inbox) {
        const text = contentItems(request.post)[0]?.text ?? '';
        const { warnings } = handedOver(progress.kind, text);
        return { kind: 'found_awaiting_creator', ...(warnings && { warnings }) };
      }
      if (status.status !== 'PUBLISH_COMPLETE') return { kind: 'not_found' };
      const privacyLevel = typeof options === 'string' ? undefined : options.privacyLevel;
      const published = publishedOutcome(
        progress,
        privacyLevel,
        progress.handle ?? request.account.handle,
        status.postId,
      );
      if (published.kind === 'published_without_id') {
        const { progress: asked, checkAfterSeconds } = published;
        return { kind: 'found_without_id', progress: asked, checkAfterSeconds };
      }
      return {
        kind: 'found',
        platformPostId: published.platformPostId,
        platformPostUrl: published.platformPostUrl,
      };
    } catch {
      return unknown('TikTok did not answer the status look-up.');
    }
  };
}
