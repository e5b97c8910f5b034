import { describe, expect, it } from 'vitest';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../../../shared/domain/errors.js';
import { MAX_BYTES_BY_KIND, type Media, mediaObjectKey } from '../../../../shared/domain/media.js';
import { makeConfirmUpload } from '../../../../shared/services/media/confirm-upload.js';
import { makeCreateUpload, type UploadRequest } from '../../../../shared/services/media/create-upload.js';
import { aMedia } from '../../support/builders.js';
import { InMemoryMediaStore } from '../../support/in-memory-media-store.js';
import { aServiceWorld, at, TENANT_ID, WORKSPACE_ID } from '../../support/service-world.js';

const PNG: UploadRequest = { filename: 'cat.png', mimeType: 'image/png', sizeBytes: 48_213 };

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('Expected the call to be refused.');
    },
    (error: unknown) => error,
  );
}

async function setup() {
  const world = await aServiceWorld();
  return {
    ...world,
    createUpload: (request: UploadRequest) => makeCreateUpload(world)(TENANT_ID, WORKSPACE_ID, request),
    confirm: (mediaId: string) => makeConfirmUpload(world)(TENANT_ID, WORKSPACE_ID, mediaId),
  };
}

describe('create upload', () => {
  it('records the media pending and issues a URL valid 15 minutes, signed for that type and size', async () => {
    const { createUpload, media, clock } = await setup();
    clock.advance(250); // Signed at a whole second: the URL expires 15 minutes after 12:00:00.

    const issued = await createUpload(PNG);

    const expected: Media = {
      mediaId: expect.stringMatching(/^med_/),
      tenantId: TENANT_ID,
      workspaceId: WORKSPACE_ID,
      filename: 'cat.png',
      mimeType: 'image/png',
      sizeBytes: 48_213,
      status: 'pending',
      objectKey: mediaObjectKey(TENANT_ID, WORKSPACE_ID, issued.media.mediaId),
      source: 'upload',
      createdAt: at(250),
    };
    expect(issued.media).toEqual(expected);
    expect(media.all()).toEqual([issued.media]);
    expect(issued.expiresAt).toBe(at(15 * 60_000));
    expect(issued.headers).toEqual({ 'Content-Type': 'image/png', 'Content-Length': '48213' });
  });

  it('the URL takes exactly the declared file, until it expires', async () => {
    const { createUpload, storage, clock } = await setup();
    const { uploadUrl, media } = await createUpload(PNG);

    expect(() => storage.uploadWithUrl(uploadUrl, Buffer.alloc(48_212), 'image/png')).toThrow(RangeError);
    expect(() => storage.uploadWithUrl(uploadUrl, Buffer.alloc(48_213), 'image/jpeg')).toThrow(RangeError);
    clock.advance(15 * 60_000);
    expect(() => storage.uploadWithUrl(uploadUrl, Buffer.alloc(48_213), 'image/png')).toThrow(RangeError);
    expect(await storage.head(media.objectKey ?? '')).toBeUndefined();
  });

  it('refuses a type it does not support: 400 naming mimeType, nothing recorded', async () => {
    const { createUpload, media } = await setup();

    const error = await rejection(createUpload({ ...PNG, mimeType: 'image/svg+xml' }));

    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).details).toHaveProperty('mimeType');
    expect(media.all()).toEqual([]);
  });

  it.each([
    ['image', 'image/png'],
    ['video', 'video/mp4'],
    ['document', 'application/pdf'],
  ] as const)(
    'takes a %s up to its limit and refuses one byte more: 400 naming sizeBytes',
    async (kind, mimeType) => {
      const { createUpload, media } = await setup();
      const limit = MAX_BYTES_BY_KIND[kind];

      await createUpload({ ...PNG, mimeType, sizeBytes: limit });
      const error = await rejection(createUpload({ ...PNG, mimeType, sizeBytes: limit + 1 }));

      expect((error as InvalidRequestError).details).toHaveProperty('sizeBytes');
      expect(media.all()).toHaveLength(1);
    },
  );
});

describe('confirm upload', () => {
  it('the declared file in storage: uploaded, stamped by the clock', async () => {
    const { createUpload, confirm, storage, media, clock } = await setup();
    const issued = await createUpload(PNG);
    storage.uploadWithUrl(issued.uploadUrl, Buffer.alloc(48_213), 'image/png');
    clock.advance(5_000);

    const confirmed = await confirm(issued.media.mediaId);

    expect(confirmed).toEqual({ ...issued.media, status: 'uploaded', uploadedAt: at(5_000) });
    expect(media.all()).toEqual([confirmed]);
  });

  it('confirming again answers the same, without stamping it again', async () => {
    const { createUpload, confirm, storage, clock } = await setup();
    const issued = await createUpload(PNG);
    storage.uploadWithUrl(issued.uploadUrl, Buffer.alloc(48_213), 'image/png');
    const first = await confirm(issued.media.mediaId);
    clock.advance(60_000);

    expect(await confirm(issued.media.mediaId)).toEqual(first);
  });

  it('an uploaded item is answered as it is, without asking storage again', async () => {
    const { confirm, media } = await setup();
    // Its object is not where the record says (an operator moved it): confirm is not a re-check.
    await media.put(aMedia());

    expect(await confirm(aMedia().mediaId)).toEqual(aMedia());
  });

  it('nothing uploaded yet: 409 upload_incomplete, still pending', async () => {
    const { createUpload, confirm, media } = await setup();
    const issued = await createUpload(PNG);

    const error = await rejection(confirm(issued.media.mediaId));

    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe('upload_incomplete');
    expect(media.all()).toEqual([issued.media]);
  });

  it.each([
    ['another size', Buffer.alloc(10), 'image/png'],
    ['another type', Buffer.alloc(48_213), 'image/jpeg'],
    ['no type', Buffer.alloc(48_213), undefined],
  ])('a stored file of %s than declared: 409 upload_incomplete, still pending', async (_what, body, type) => {
    const { createUpload, confirm, storage, media } = await setup();
    const issued = await createUpload(PNG);
    // What a storage that ignored the signature would hold.
    storage.putRaw(issued.media.objectKey ?? '', body, type);

    const error = await rejection(confirm(issued.media.mediaId));

    expect((error as ConflictError).code).toBe('upload_incomplete');
    expect(media.all()).toEqual([issued.media]);
  });

  it.each([
    [
      'an import by URL',
      aMedia({ status: 'pending', source: 'url', sourceUrl: 'https://cdn.example.com/a.png' }),
    ],
    [
      'a failed import',
      aMedia({ status: 'failed', source: 'url', error: { code: 'media_url_blocked', message: 'x' } }),
    ],
  ])('%s is not an upload to confirm: 409 upload_incomplete', async (_what, item) => {
    const { confirm, media, storage } = await setup();
    await media.put(item);
    await storage.put(item.objectKey ?? '', Buffer.alloc(item.sizeBytes), item.mimeType);

    const error = await rejection(confirm(item.mediaId));

    expect((error as ConflictError).code).toBe('upload_incomplete');
    expect(await media.get(TENANT_ID, WORKSPACE_ID, item.mediaId)).toEqual(item);
  });

  it('media that does not exist, or that went while it was confirmed: 404', async () => {
    const world = await aServiceWorld();
    const item = aMedia({ status: 'pending' });
    await world.storage.put(item.objectKey ?? '', Buffer.alloc(item.sizeBytes), item.mimeType);
    // Deleted between the read and the write: settle finds nothing.
    const vanishing = new (class extends InMemoryMediaStore {
      override async settle() {
        return undefined;
      }
    })();
    await vanishing.put(item);

    const missing = await rejection(makeConfirmUpload(world)(TENANT_ID, WORKSPACE_ID, item.mediaId));
    const gone = await rejection(
      makeConfirmUpload({ ...world, media: vanishing })(TENANT_ID, WORKSPACE_ID, item.mediaId),
    );

    expect(missing).toBeInstanceOf(NotFoundError);
    expect(gone).toBeInstanceOf(NotFoundError);
  });
});
