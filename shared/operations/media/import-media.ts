import { defineOperation } from '../../http/operation.js';
import { makeStartImport } from '../../services/media/import-media.js';
import { noQuery, workspacePathParams } from '../common-schemas.js';
import { importBody, mediaResource, toMediaResource } from './media-schemas.js';

export const importMedia = defineOperation({
  id: 'importMedia',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/media',
  summary: 'Import media from a public URL',
  description:
    'Answers at once with the media, pending; the service fetches the URL in the background (HTTPS only, public addresses only, at most 3 redirects, within the size limit of the type) and stores the file. Poll GET .../media/{media_id}: uploaded, or failed with error.code (media_url_blocked, media_url_unreachable, media_too_large, media_type_mismatch, media_fetch_timeout, media_too_many_redirects).',
  toolDescription:
    'Answers at once with the media, pending; the service fetches the URL in the background (HTTPS only, public addresses only, at most 3 redirects, within the size limit of the type) and stores the file. Poll getMedia: uploaded, or failed with error.code (media_url_blocked, media_url_unreachable, media_too_large, media_type_mismatch, media_fetch_timeout, media_too_many_redirects).',
  tag: 'Media',
  auth: 'apiKey',
  permission: 'media:write',
  rateLimitFamily: 'media_uploads',
  workspace: 'path',
  successStatus: 202,
  successDescription:
    'The media item, pending: the service fetches the URL in the background; poll it until uploaded or failed.',
  effects: { reachesNetwork: true },
  schemas: { params: workspacePathParams, query: noQuery, body: importBody, response: mediaResource },
  async handler({ deps, principal, workspaceId }, { body }) {
    return toMediaResource(await makeStartImport(deps)(principal.tenant.tenantId, workspaceId, body));
  },
});
