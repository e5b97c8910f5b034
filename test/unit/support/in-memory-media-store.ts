import type { Media } from '../../../shared/domain/media.js';
import type { MediaStore } from '../../../shared/ports/media-store.js';
import type { Page, PageRequest } from '../../../shared/ports/page.js';

/**
 * A Map-backed MediaStore for unit tests, with the DynamoDB adapter's contract: `settle` moves only
 * a pending item (a settled one comes back unchanged, a missing one as undefined), `delete` says
 * whether there was an item, `list` is newest first, and every read and write copies.
 */
export class InMemoryMediaStore implements MediaStore {
  private readonly items = new Map<string, Media>();

  /** Every stored item, oldest id first (what was written, for assertions). */
  all(): Media[] {
    return [...this.items.values()]
      .sort((a, b) => (a.mediaId < b.mediaId ? -1 : 1))
      .map((media) => structuredClone(media));
  }

  async put(media: Media): Promise<void> {
    this.items.set(mediaKey(media.tenantId, media.workspaceId, media.mediaId), structuredClone(media));
  }

  async get(tenantId: string, workspaceId: string, mediaId: string): Promise<Media | undefined> {
    const media = this.items.get(mediaKey(tenantId, workspaceId, mediaId));
    return media && structuredClone(media);
  }

  async list(tenantId: string, workspaceId: string, page: PageRequest): Promise<Page<Media>> {
    const newestFirst = [...this.items.values()]
      .filter((media) => media.tenantId === tenantId && media.workspaceId === workspaceId)
      .sort((a, b) => (a.mediaId < b.mediaId ? 1 : -1))
      .filter((media) => !page.cursor || media.mediaId < page.cursor);
    const items = newestFirst.slice(0, page.limit);
    const last = items.at(-1);
    return {
      items: items.map((media) => structuredClone(media)),
      ...(last && newestFirst.length > items.length && { nextCursor: last.mediaId }),
    };
  }

  async settle(
    tenantId: string,
    workspaceId: string,
    mediaId: string,
    change: Pick<Media, 'status'> & Partial<Pick<Media, 'uploadedAt' | 'error' | 'sizeBytes' | 'mimeType'>>,
  ): Promise<Media | undefined> {
    const key = mediaKey(tenantId, workspaceId, mediaId);
    const current = this.items.get(key);
    if (!current) return undefined;
    if (current.status !== 'pending') return structuredClone(current);
    const settled = { ...current, ...structuredClone(change) };
    this.items.set(key, settled);
    return structuredClone(settled);
  }

  async delete(tenantId: string, workspaceId: string, mediaId: string): Promise<boolean> {
    return this.items.delete(mediaKey(tenantId, workspaceId, mediaId));
  }
}

function mediaKey(tenantId: string, workspaceId: string, mediaId: string): string {
  return `${tenantId}/${workspaceId}/${mediaId}`;
}
