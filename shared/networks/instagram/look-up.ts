import type { LookupOutcome, LookupRequest } from '../../ports/connector.js';
import { captionOf, type InstagramPostType } from './container-params.js';
import { InstagramStepFailed } from './errors.js';
import { containerStatus, type GraphContext, recentMedia } from './graph.js';
import { INSTAGRAM_CLOCK_SKEW_MS } from './limits.js';
import { findPublishedMedia } from './media-search.js';
import { readProgress } from './progress.js';

const unknown = (message: string): LookupOutcome => ({ kind: 'unknown', message });
const INSTAGRAM_POST_TYPES: readonly string[] = ['image', 'carousel', 'reel', 'story'];

/**
 * Whether Instagram already has the post, without publishing. The container the attempt was
 * publishing (kept in progress) says it: PUBLISHED → the post is found among the account's recent
 * media (matched by caption, kind and time; `unknown` if not listed yet); any other status → it was
 * not published (`not_found`: the retry publishes that same container, never a second one). With no
 * container recorded (a worker that died before it could say), the account's recent media are
 * searched for the caption since the post was created; `unknown` when the listing cannot settle it.
 */
export function makeInstagramLookUp(deps: { api: GraphContext['api'] }) {
  return async function findPublished(request: LookupRequest): Promise<LookupOutcome> {
    if (!request.credentials)
      return unknown('The Instagram account has no access token to look the post up with.');
    const postType = request.post.postType;
    if (!INSTAGRAM_POST_TYPES.includes(postType)) return unknown(`Instagram has no ${postType} posts.`);
    const type = postType as InstagramPostType;
    const progress = readProgress(request.progress);
    const context: GraphContext = {
      api: deps.api,
      accessToken: request.credentials.accessToken,
      userId: request.account.networkUserId ?? 'me',
      signal: request.signal,
    };
    const caption = type === 'story' ? '' : captionOf(request.post);
    try {
      if (progress.container) {
        const status = await containerStatus(context, progress.container);
        if (status.code !== 'PUBLISHED') return { kind: 'not_found' };
        const since = Date.parse(progress.publishSentAt ?? progress.containerAt ?? request.post.createdAt);
        const found = await findPublishedMedia(context, { postType: type, caption, since });
        return found
          ? { kind: 'found', ...found }
          : unknown('Instagram published the container, and the post is not listed on the account yet.');
      }
      const since = Date.parse(request.post.createdAt);
      const found = await findPublishedMedia(context, { postType: type, caption, since });
      if (found) return { kind: 'found', ...found };
      // Not listed: settled only if the listing reaches back past the post's creation.
      const listed = await recentMedia(context, type === 'story' ? 'stories' : 'media');
      const reachesBack =
        listed !== undefined &&
        (listed.length < 50 ||
          listed.some(
            (media) => media.timestamp && Date.parse(media.timestamp) < since - INSTAGRAM_CLOCK_SKEW_MS,
          ));
      return reachesBack ? { kind: 'not_found' } : unknown('Too many recent posts on the account to tell.');
    } catch (error) {
      if (error instanceof InstagramStepFailed) return unknown(error.outcome.message);
      return unknown('Instagram did not answer the look-up.');
    }
  };
}
