import { getPosts, getProfile } from './appview-routes.js';
import type { Handler } from './context.js';
import type { FakeBlueskyEndpoint } from './control.js';
import {
  authorizeDecision,
  authorizePage,
  authServerMetadata,
  plcDocument,
  protectedResource,
  pushAuthorization,
  revoke,
  token,
} from './oauth-routes.js';
import {
  createRecord,
  deleteRecord,
  describeRepo,
  getRecord,
  getServiceAuth,
  resolveHandle,
  uploadBlob,
} from './pds-routes.js';
import { getJobStatus, getUploadLimits, uploadVideo } from './video-routes.js';

export interface Route {
  method: string;
  /** Exact path, or a prefix ending in `/` (the PLC directory's DIDs). */
  path: string;
  endpoint?: FakeBlueskyEndpoint;
  /** Which server answers: the authorization server answers nonces on every answer, the PDS too. */
  server: 'authServer' | 'pds' | 'other';
  handler: Handler;
}

const xrpc = (nsid: string) => `/xrpc/${nsid}`;

/** One port stands for the entryway (authorization server), the PLC directory, the PDS and the video service. */
export const ROUTES: readonly Route[] = [
  {
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    server: 'other',
    handler: authServerMetadata,
  },
  {
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    server: 'other',
    handler: protectedResource,
  },
  { method: 'POST', path: '/oauth/par', endpoint: 'par', server: 'authServer', handler: pushAuthorization },
  { method: 'GET', path: '/oauth/authorize', server: 'other', handler: authorizePage },
  { method: 'POST', path: '/oauth/authorize/decision', server: 'other', handler: authorizeDecision },
  { method: 'POST', path: '/oauth/token', endpoint: 'token', server: 'authServer', handler: token },
  { method: 'POST', path: '/oauth/revoke', server: 'authServer', handler: revoke },
  { method: 'GET', path: '/plc/', server: 'other', handler: plcDocument },
  {
    method: 'POST',
    path: xrpc('com.atproto.repo.createRecord'),
    endpoint: 'createRecord',
    server: 'pds',
    handler: createRecord,
  },
  {
    method: 'GET',
    path: xrpc('com.atproto.repo.getRecord'),
    endpoint: 'getRecord',
    server: 'pds',
    handler: getRecord,
  },
  { method: 'POST', path: xrpc('com.atproto.repo.deleteRecord'), server: 'pds', handler: deleteRecord },
  {
    method: 'POST',
    path: xrpc('com.atproto.repo.uploadBlob'),
    endpoint: 'uploadBlob',
    server: 'pds',
    handler: uploadBlob,
  },
  { method: 'GET', path: xrpc('com.atproto.repo.describeRepo'), server: 'pds', handler: describeRepo },
  { method: 'GET', path: xrpc('com.atproto.identity.resolveHandle'), server: 'pds', handler: resolveHandle },
  {
    method: 'GET',
    path: xrpc('com.atproto.server.getServiceAuth'),
    endpoint: 'getServiceAuth',
    server: 'pds',
    handler: getServiceAuth,
  },
  {
    method: 'GET',
    path: xrpc('app.bsky.feed.getPosts'),
    endpoint: 'getPosts',
    server: 'pds',
    handler: getPosts,
  },
  {
    method: 'GET',
    path: xrpc('app.bsky.actor.getProfile'),
    endpoint: 'getProfile',
    server: 'pds',
    handler: getProfile,
  },
  {
    method: 'GET',
    path: `/video${xrpc('app.bsky.video.getUploadLimits')}`,
    server: 'other',
    handler: getUploadLimits,
  },
  {
    method: 'POST',
    path: `/video${xrpc('app.bsky.video.uploadVideo')}`,
    endpoint: 'uploadVideo',
    server: 'other',
    handler: uploadVideo,
  },
  {
    method: 'GET',
    path: `/video${xrpc('app.bsky.video.getJobStatus')}`,
    endpoint: 'getJobStatus',
    server: 'other',
    handler: getJobStatus,
  },
];

export function findRoute(method: string, pathname: string): Route | undefined {
  return ROUTES.find(
    (route) =>
      route.method === method &&
      (route.path.endsWith('/') ? pathname.startsWith(route.path) : pathname === route.path),
  );
}
