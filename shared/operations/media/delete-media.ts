import * as z from 'zod';
import { defineOperation, type Operation } from '../../http/operation.js';
import { makeDeleteMedia } from '../../services/media/delete-media.js';
import { noQuery } from '../common-schemas.js';
import { mediaPathParams, shortMediaPathParams } from './media-schemas.js';

const description =
  'Removes the file and the record. A scheduled or draft post that still uses it fails at delivery with media_not_found.';

export const deleteMedia = defineOperation({
  id: 'deleteMedia',
  method: 'DELETE',
  path: '/v1/workspaces/{workspace_id}/media/{media_id}',
  summary: 'Delete media',
  description,
  tag: 'Media',
  auth: 'apiKey',
  permission: 'media:write',
  rateLimitFamily: 'other',
  workspace: 'path',
  resources: ['media-delete'],
  errors: ['not_found'],
  successStatus: 204,
  successDescription: 'Deleted: the media record and its file are gone.',
  schemas: { params: mediaPathParams, query: noQuery, response: z.undefined() },
  async handler({ deps, principal, workspaceId }, { params }) {
    await makeDeleteMedia(deps)(principal.tenant.tenantId, workspaceId, params.media_id);
    return undefined;
  },
});

/** The interface's short form: the workspace is the key's only one, or ?workspaceId=. */
export const deleteMediaShort: Operation = defineOperation({
  ...deleteMedia,
  id: 'deleteMediaShort',
  path: '/v1/media/{media_id}',
  summary: 'Delete media (short form)',
  description: `${description} With a key for several workspaces, name one with ?workspaceId= (else 403 workspace_required).`,
  workspace: 'implicit',
  schemas: { params: shortMediaPathParams, query: noQuery, response: z.undefined() },
});
