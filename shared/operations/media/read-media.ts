import * as z from 'zod';
import { NotFoundError } from '../../domain/errors.js';
import { defineOperation } from '../../http/operation.js';
import { noQuery, pageOf, pageQuery, workspacePathParams } from '../common-schemas.js';
import { mediaPathParams, mediaResource, toMediaResource } from './media-schemas.js';

export const getMedia = defineOperation({
  id: 'getMedia',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/media/{media_id}',
  summary: 'Read one media item',
  description:
    'Its status (pending, uploaded, failed), type, size and origin. Media of other workspaces is not visible.',
  tag: 'Media',
  auth: 'apiKey',
  permission: 'posts:read',
  rateLimitFamily: 'other',
  workspace: 'path',
  errors: ['not_found'],
  successStatus: 200,
  successDescription: 'The media item: its status (pending, uploaded, failed), type, size and origin.',
  schemas: { params: mediaPathParams, query: noQuery, response: mediaResource },
  async handler({ deps, principal, workspaceId }, { params }) {
    const media = await deps.media.get(principal.tenant.tenantId, workspaceId, params.media_id);
    if (!media) throw new NotFoundError();
    return toMediaResource(media);
  },
});

export const listMedia = defineOperation({
  id: 'listMedia',
  method: 'GET',
  path: '/v1/workspaces/{workspace_id}/media',
  summary: "List a workspace's media, newest first",
  description:
    'Media is never deleted automatically; it is reusable by any number of posts of the workspace.',
  tag: 'Media',
  auth: 'apiKey',
  permission: 'posts:read',
  rateLimitFamily: 'other',
  workspace: 'path',
  successStatus: 200,
  successDescription: "A page of the workspace's media, newest first, with `nextCursor` while more remain.",
  schemas: { params: workspacePathParams, query: z.object(pageQuery), response: pageOf(mediaResource) },
  async handler({ deps, principal, workspaceId }, { query }) {
    const page = await deps.media.list(principal.tenant.tenantId, workspaceId, {
      limit: query.limit,
      ...(query.cursor && { cursor: query.cursor }),
    });
    return { data: page.items.map(toMediaResource), nextCursor: page.nextCursor ?? null };
  },
});
