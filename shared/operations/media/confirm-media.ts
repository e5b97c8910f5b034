import { defineOperation } from '../../http/operation.js';
import { makeConfirmUpload } from '../../services/media/confirm-upload.js';
import { noQuery } from '../common-schemas.js';
import { mediaPathParams, mediaResource, toMediaResource } from './media-schemas.js';

export const confirmMedia = defineOperation({
  id: 'confirmMedia',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/media/{media_id}/confirm',
  summary: 'Confirm an upload (optional: uploads confirm themselves)',
  description:
    'Checks the stored file against what was declared. The file there, with the declared type and size: the media is uploaded (repeating the call is harmless). Nothing there, or something else: 409 upload_incomplete, and nothing changes. Counts in the media uploads rate limit.',
  tag: 'Media',
  auth: 'apiKey',
  permission: 'media:write',
  rateLimitFamily: 'media_uploads',
  workspace: 'path',
  resources: ['media-read'],
  errors: ['not_found', 'upload_incomplete'],
  successStatus: 200,
  successDescription: 'The media item, uploaded: the stored file matches the declared type and size.',
  effects: { idempotent: true },
  schemas: { params: mediaPathParams, query: noQuery, response: mediaResource },
  async handler({ deps, principal, workspaceId }, { params }) {
    return toMediaResource(
      await makeConfirmUpload(deps)(principal.tenant.tenantId, workspaceId, params.media_id),
    );
  },
});
