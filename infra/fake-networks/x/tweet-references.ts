import type { Reply } from './http.js';
import type { FakeTweet, FakeXStore, FakeXUser } from './store.js';

/**
 * What X checks of the posts and Community a new tweet names (research network-extras.md §1f and
 * first-comment-and-link-previews.md §1.1): the docs list no bodies for these refusals, so the fake
 * answers each with a 403 problem in X's usual shape, its detail as issue threads report X's.
 */

function forbidden(detail: string): Reply {
  return { status: 403, json: { detail, type: 'about:blank', title: 'Forbidden', status: 403 } };
}

/** A reply's target: there, open to the replier by its reply settings, and allowed by the API restriction. */
export function replyRefusal(store: FakeXStore, user: FakeXUser, targetId: string): Reply | undefined {
  const target = store.tweets.find((tweet) => tweet.id === targetId);
  if (!target) return forbidden('You attempted to reply to a Tweet that is deleted or not visible to you.');
  const own = target.authorId === user.id;
  if (!own && target.replySettings && target.replySettings !== 'everyone') {
    return forbidden(
      'Reply to this conversation is not allowed because you have not been mentioned or otherwise engaged by the author of the post you are replying to.',
    );
  }
  if (store.replyRestriction === 'all' || (store.replyRestriction === 'others' && !own)) {
    return forbidden(
      'Reply to this conversation is not allowed because you have not been mentioned or otherwise engaged by the author of the post you are replying to.',
    );
  }
  return undefined;
}

/** A quoted post: there and visible (a deleted one is gone from the store). */
export function quoteRefusal(store: FakeXStore, quotedId: string): Reply | undefined {
  if (store.tweets.some((tweet: FakeTweet) => tweet.id === quotedId)) return undefined;
  return forbidden('You attempted to quote a Tweet that is deleted or not visible to you.');
}

/** A Community: the author must be a member (an unknown Community has no members). */
export function communityRefusal(store: FakeXStore, user: FakeXUser, communityId: string): Reply | undefined {
  if (store.communities.get(communityId)?.memberIds.has(user.id)) return undefined;
  return forbidden('You are not permitted to create a Tweet in this Community: you are not a member.');
}
