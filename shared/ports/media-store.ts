import type { Media } from '../domain/media.js';
import type { Page, PageRequest } from './page.js';

/** Media records of workspaces (the bytes live in ObjectStorage). */
export interface MediaStore {
  put(media: Media): Promise<void>;
  get(tenantId: string, workspaceId: string, mediaId: string): Promise<Media | undefined>;
  list(tenantId: string, workspaceId: string, page: PageRequest): Promise<Page<Media>>;
  /**
   * pending → uploaded (or failed) with the given fields; the record as it is afterwards.
   * Undefined when there is no such media. An item already settled is returned unchanged.
   */
  settle(
    tenantId: string,
    workspaceId: string,
    mediaId: string,
    change: Pick<Media, 'status'> &
      Partial<
        Pick<
          Media,
          'uploadedAt' | 'error' | 'sizeBytes' | 'mimeType' | 'durationSeconds' | 'width' | 'height'
        >
      >,
  ): Promise<Media | undefined>;
  delete(tenantId: string, workspaceId: string, mediaId: string): Promise<boolean>;
}
