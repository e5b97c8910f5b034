import type { LookupOutcome, LookupRequest } from '../../ports/connector.js';
import { FacebookStepFailed } from './errors.js';
import { type PageContext, recentPosts, videoState } from './graph.js';
import {
  FACEBOOK_CLOCK_SKEW_MS,
  FACEBOOK_LOOKUP_PAGE_SIZE,
  facebookPostUrl,
  facebookReelUrl,
  facebookVideoUrl,
} from './limits.js';
import { FACEBOOK_POST_TYPES } from './media-check.js';
import { readProgress } from './progress.js';
import { messageOf } from './publish.js';

const unknown = (message: string): LookupOutcome => ({ kind: 'unknown', message });

/**
 * Whether the Page already has the post, without publishing (Meta takes no idempotency key,
 * facebook-pages.md §3):
 * - a reel, or a video whose id came back: its status says (publishing complete → found; anything
 *   else → not_found, and the retry resumes that same video from progress, never a second one);
 *   a reel that never got an id was never published (start publishes nothing);
 * - the rest: the Page's posts (videos: its videos) since the unanswered call was sent (the
 *   post's creation when no attempt said), matched on the exact text; not listed → not_found when
 *   the listing reaches back past that time, else unknown.
 */
export function makeFacebookLookUp(deps: { api: PageContext['api'] }) {
  return async function findPublished(request: LookupRequest): Promise<LookupOutcome> {
    if (!request.credentials)
      return unknown('The Facebook Page has no access token to look the post up with.');
    const postType = request.post.postType;
    if (!FACEBOOK_POST_TYPES.includes(postType)) return unknown(`Facebook Pages have no ${postType} posts.`);
    const progress = readProgress(request.progress);
    const context: PageContext = {
      api: deps.api,
      accessToken: request.credentials.accessToken,
      pageId: request.account.networkUserId ?? 'me',
      signal: request.signal,
    };
    try {
      if (postType === 'reel' || (postType === 'video' && progress.videoId)) {
        if (!progress.videoId) return { kind: 'not_found' };
        const state = await videoState(context, progress.videoId);
        if (state !== 'published') return { kind: 'not_found' };
        return {
          kind: 'found',
          platformPostId: progress.videoId,
          platformPostUrl:
            postType === 'reel'
              ? facebookReelUrl(progress.videoId)
              : facebookVideoUrl(context.pageId, progress.videoId),
        };
      }
      const since = Date.parse(progress.attemptAt ?? request.post.createdAt) - FACEBOOK_CLOCK_SKEW_MS;
      const sinceSeconds = Math.floor((Number.isFinite(since) ? since : 0) / 1000);
      const edge = postType === 'video' ? 'videos' : 'published_posts';
      const listed = await recentPosts(context, edge, sinceSeconds);
      if (!listed) return unknown('Facebook answered the post listing unreadably.');
      const text = messageOf(request.post);
      const match = listed.find((post) => {
        const at = post.created_time ? Date.parse(post.created_time) : Number.NaN;
        const said = edge === 'videos' ? post.description : post.message;
        return at >= sinceSeconds * 1000 && (said ?? '') === text;
      });
      if (match) {
        const fallback =
          edge === 'videos' ? facebookVideoUrl(context.pageId, match.id) : facebookPostUrl(match.id);
        return {
          kind: 'found',
          platformPostId: match.id,
          platformPostUrl: match.permalink_url
            ? new URL(match.permalink_url, 'https://www.facebook.com').toString()
            : fallback,
        };
      }
      // Everything since then fitted in one page: the Page does not have the post.
      return listed.length < FACEBOOK_LOOKUP_PAGE_SIZE
        ? { kind: 'not_found' }
        : unknown('Too many posts on the Page since the attempt to tell.');
    } catch (error) {
      if (error instanceof FacebookStepFailed) return unknown(error.outcome.message);
      return unknown('Facebook did not answer the look-up.');
    }
  };
}
