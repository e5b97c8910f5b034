import type { Reply } from '../shared/http.js';
import { type Handler, type RouteContext, xrpcError } from './context.js';
import { authorised } from './pds-routes.js';

const APPVIEW = 'did:web:api.bsky.app#bsky_appview';

/** An AppView read through the PDS: the user's session, and the `atproto-proxy` header naming the AppView. */
function proxied(context: RouteContext): { did: string } | { refusal: Reply } {
  const auth = authorised(context);
  if ('refusal' in auth) return auth;
  if (context.headers['atproto-proxy'] !== APPVIEW)
    return { refusal: xrpcError(400, 'InvalidRequest', 'XRPC method not implemented on this PDS') };
  return { did: auth.user.did };
}

/** GET app.bsky.feed.getPosts?uris (≤ 25): the views of the posts that exist, with their counts. */
export const getPosts: Handler = (context) => {
  const access = proxied(context);
  if ('refusal' in access) return access.refusal;
  const uris = context.url.searchParams.getAll('uris');
  if (uris.length > 25) return xrpcError(400, 'InvalidRequest', 'uris must not have more than 25 elements');
  const posts = uris.flatMap((uri) => {
    const record = context.store.records.get(uri);
    if (!record) return [];
    const counts = context.store.counts.get(uri) ?? {};
    return [
      {
        uri,
        cid: record.cid,
        author: { did: record.did },
        record: record.value,
        likeCount: 0,
        replyCount: 0,
        repostCount: 0,
        quoteCount: 0,
        ...counts,
        indexedAt: new Date(context.settings.now()).toISOString(),
      },
    ];
  });
  return { status: 200, json: { posts } };
};

/** GET app.bsky.actor.getProfile?actor: the account's counts. */
export const getProfile: Handler = (context) => {
  const access = proxied(context);
  if ('refusal' in access) return access.refusal;
  const actor = context.url.searchParams.get('actor') ?? '';
  const user = context.store.users.get(actor);
  if (!user) return xrpcError(400, 'InvalidRequest', 'Profile not found');
  const posts = [...context.store.records.values()].filter((record) => record.did === user.did).length;
  return {
    status: 200,
    json: {
      did: user.did,
      handle: user.handle,
      displayName: user.displayName,
      followersCount: 42,
      followsCount: 7,
      postsCount: posts,
    },
  };
};
