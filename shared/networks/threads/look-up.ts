import type { LookupOutcome, LookupRequest } from '../../ports/connector.js';
import { ThreadsStepFailed } from './errors.js';
import { searchPosts } from './find-post.js';
import { containerStatus, type GraphContext, permalinkOf } from './graph.js';
import { dueAt, indexOfKey, itemTexts } from './items.js';
import { threadsProfileUrl } from './limits.js';
import { readThreadsOptions } from './options.js';
import { readProgress } from './progress.js';

const unknown = (message: string): LookupOutcome => ({ kind: 'unknown', message });
const THREADS_POST_TYPES: readonly string[] = ['text', 'image', 'video', 'carousel', 'thread'];

/**
 * Whether Threads already has the post, without publishing (threads.md §9). Walks the post's
 * posts from the first the progress does not hold:
 * - the one whose container the attempt recorded: its status says (PUBLISHED → found among the
 *   account's posts or replies by text, time and parent; anything else → it was not published);
 * - the others: searched among the account's recent posts (or replies) since the post was due.
 * Every post found: `found`, with the first's id. One missing: `not_found` (a thread some of whose
 * posts are on Threads is `not_found` too: the retry finds those itself and publishes only the
 * rest). A listing that cannot settle it, or a failing call: `unknown`.
 */
export function makeThreadsLookUp(deps: { api: GraphContext['api'] }) {
  return async function findPublished(request: LookupRequest): Promise<LookupOutcome> {
    if (!request.credentials)
      return unknown('The Threads account has no access token to look the post up with.');
    if (!THREADS_POST_TYPES.includes(request.post.postType))
      return unknown(`Threads has no ${request.post.postType} posts.`);
    const options = readThreadsOptions(request.post);
    const replyTo = 'invalid' in options ? undefined : options.replyToId;
    const context: GraphContext = {
      api: deps.api,
      accessToken: request.credentials.accessToken,
      userId: request.account.networkUserId ?? 'me',
      signal: request.signal,
    };
    const progress = readProgress(request.progress);
    const ids = [...progress.posted];
    const texts = itemTexts(request.post);
    const since = dueAt(request.post);
    try {
      for (let index = ids.length; index < texts.length; index += 1) {
        const replyToId = index === 0 ? replyTo : ids[index - 1];
        const wanted = {
          text: texts[index] ?? '',
          since,
          handle: request.account.handle,
          ...(replyToId && { replyToId }),
        };
        const item = progress.item;
        const container = item && indexOfKey(item.of) === index ? item.container : undefined;
        if (container) {
          const status = await containerStatus(context, container);
          if (status.code !== 'PUBLISHED') return { kind: 'not_found' };
        }
        const found = await searchPosts(context, wanted);
        if (found.kind === 'found') {
          ids.push(found.post.platformPostId);
          continue;
        }
        if (container)
          return unknown('Threads published the container, and the post is not listed on the account yet.');
        return found.kind === 'not_found'
          ? { kind: 'not_found' }
          : unknown('Too many recent posts on the account to tell.');
      }
      const rootId = ids[0];
      if (!rootId) return { kind: 'not_found' };
      const permalink = await permalinkOf(context, rootId);
      return {
        kind: 'found',
        platformPostId: rootId,
        platformPostUrl: permalink ?? threadsProfileUrl(request.account.handle),
      };
    } catch (error) {
      if (error instanceof ThreadsStepFailed) return unknown(error.outcome.message);
      return unknown('Threads did not answer the look-up.');
    }
  };
}
