import type { ClientContext } from './context.js';
import { errorFromResponse } from './errors.js';
import type { Media, operations } from './types.js';
import { unwrap } from './unwrap.js';

type UploadUrlBody = operations['createUploadUrl']['requestBody']['content']['application/json'];

export interface UploadInput {
  filename: string;
  mimeType: UploadUrlBody['mimeType'];
  /** The whole file: a Blob, or bytes (a Buffer from readFile is one). */
  bytes: Blob | Uint8Array<ArrayBuffer>;
}

const sizeOf = (bytes: UploadInput['bytes']) => (bytes instanceof Blob ? bytes.size : bytes.byteLength);

export function makeMediaHelpers({ api, fetch }: ClientContext) {
  return {
    /**
     * Uploads a file and answers the media, uploaded: asks for a presigned URL, PUTs the bytes
     * there with exactly the headers the service gave (no API key: the URL is the credential),
     * then confirms, which checks the stored file against what was declared.
     */
    uploadMedia: async (workspaceId: string, input: UploadInput): Promise<Media> => {
      const issued = unwrap(
        await api.POST('/v1/workspaces/{workspace_id}/media/upload-url', {
          params: { path: { workspace_id: workspaceId } },
          body: { filename: input.filename, mimeType: input.mimeType, sizeBytes: sizeOf(input.bytes) },
        }),
      );
      const stored = await fetch(
        new Request(issued.uploadUrl, { method: 'PUT', headers: issued.headers, body: input.bytes }),
      );
      if (!stored.ok) throw errorFromResponse(stored, await stored.text());
      return unwrap(
        await api.POST('/v1/workspaces/{workspace_id}/media/{media_id}/confirm', {
          params: { path: { workspace_id: workspaceId, media_id: issued.mediaId } },
        }),
      );
    },
  };
}
