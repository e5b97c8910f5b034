import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Media } from '../../../../shared/domain/media.js';
import type { MediaRef } from '../../../../shared/domain/posts.js';
import type { DeliveryMedia } from '../../../../shared/ports/connector.js';
import type { MediaUrls } from '../../../../shared/ports/media-urls.js';

/**
 * The media bucket's presigned GETs, as a loopback server: each URL carries a signature and an
 * expiry, and the server refuses a URL past it, as S3 does. It records what was presigned.
 */
export class LoopbackMediaUrls implements MediaUrls {
  readonly objects = new Map<string, { bytes: Uint8Array; contentType: string }>();
  readonly presigned: { key: string; expiresInSeconds: number }[] = [];
  private baseUrl = '';
  private readonly server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', this.baseUrl);
    const key = decodeURIComponent(url.pathname.slice(1));
    const expires = Number(url.searchParams.get('X-Amz-Expires-At'));
    const object = this.objects.get(key);
    if (!object || url.searchParams.get('X-Amz-Signature') !== 'fake' || !(expires > Date.now())) {
      response.writeHead(403).end();
      return;
    }
    response.writeHead(200, { 'content-type': object.contentType, 'content-length': object.bytes.length });
    response.end(object.bytes);
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  put(key: string, bytes: Uint8Array, contentType: string): void {
    this.objects.set(key, { bytes, contentType });
  }

  async presignGet(objectKey: string, expiresInSeconds: number): Promise<string> {
    this.presigned.push({ key: objectKey, expiresInSeconds });
    const url = new URL(`${this.baseUrl}/${encodeURIComponent(objectKey)}`);
    url.searchParams.set('X-Amz-Expires-At', String(Date.now() + expiresInSeconds * 1000));
    url.searchParams.set('X-Amz-Signature', 'fake');
    return url.toString();
  }
}

/** A small JPEG-looking file: the JPEG magic bytes, then filler. */
export function jpegBytes(size = 2048): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  for (let i = 4; i < size; i += 1) bytes[i] = i % 251;
  return bytes;
}

/** A small PNG-looking file: the PNG magic's first four bytes, then zeros. */
export function pngBytes(size = 2048): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47]);
  return bytes;
}

const CREATED_AT = '2026-05-10T09:00:00.000Z';

/** What a test says of a media item it stores; `bytes` defaults to the world's own per kind. */
export interface LoopbackMediaOptions {
  id?: string;
  mimeType?: string;
  alt?: string;
  /** The size the media record claims, when a test wants it to differ from the bytes'. */
  sizeBytes?: number;
}

/**
 * A stored media item of tenant ten_1, workspace wks_1, its bytes put behind the loopback URLs:
 * what the worker hands the connector (`delivered`) and what the post refers to (`ref`).
 */
export function storeLoopbackMedia(
  urls: LoopbackMediaUrls,
  kind: 'image' | 'video',
  bytes: Uint8Array,
  options: LoopbackMediaOptions = {},
): { delivered: DeliveryMedia; ref: MediaRef } {
  const mediaId = options.id ?? `med_${kind}_${urls.objects.size + 1}`;
  const objectKey = `t/ten_1/w/wks_1/m/${mediaId}`;
  const mimeType = options.mimeType ?? (kind === 'image' ? 'image/jpeg' : 'video/mp4');
  urls.put(objectKey, bytes, mimeType);
  const stored: Media = {
    mediaId,
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    filename: `${mediaId}.${mimeType.split('/')[1]}`,
    mimeType,
    sizeBytes: options.sizeBytes ?? bytes.length,
    status: 'uploaded',
    objectKey,
    source: 'upload',
    createdAt: CREATED_AT,
  };
  return {
    delivered: { kind, stored, ...(options.alt && { alt: options.alt }) },
    ref: { id: mediaId, ...(options.alt && { alt: options.alt }) },
  };
}
