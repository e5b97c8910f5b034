import { defineOperation } from '../../http/operation.js';
import { makeCreateUpload } from '../../services/media/create-upload.js';
import { noQuery, workspacePathParams } from '../common-schemas.js';
import { uploadUrlBody, uploadUrlResource } from './media-schemas.js';

export const createUploadUrl = defineOperation({
  id: 'createUploadUrl',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/media/upload-url',
  summary: 'Get a presigned URL to upload a file',
  description:
    'Creates media in status pending and returns a URL, valid 15 minutes, for one PUT of the raw bytes (no multipart, no Authorization header) with exactly the returned headers: storage refuses another Content-Type or size. The upload confirms itself; POST .../confirm confirms explicitly. Documents (application/pdf) are for the professional network only, checked when a post uses them.',
  toolDescription:
    'Creates media, pending, and returns uploadUrl, valid 15 minutes, for one HTTP PUT of the raw bytes (no multipart, no Authorization header) with exactly the returned headers: storage refuses another Content-Type or size. The upload confirms itself; confirmMedia confirms explicitly. Documents (application/pdf): the professional network only, checked when a post uses them.',
  tag: 'Media',
  auth: 'apiKey',
  permission: 'media:write',
  rateLimitFamily: 'media_uploads',
  workspace: 'path',
  resources: ['media-upload'],
  successStatus: 201,
  successDescription:
    'The new media id (status pending) and the presigned URL, valid 15 minutes, to PUT the file to with exactly the returned headers.',
  schemas: { params: workspacePathParams, query: noQuery, body: uploadUrlBody, response: uploadUrlResource },
  async handler({ deps, principal, workspaceId }, { body }) {
    const issued = await makeCreateUpload(deps)(principal.tenant.tenantId, workspaceId, body);
    return {
      mediaId: issued.media.mediaId,
      uploadUrl: issued.uploadUrl,
      expiresAt: issued.expiresAt,
      status: 'pending' as const,
      headers: issued.headers,
    };
  },
});
