import type { S3Event } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { makeMediaUploadedHandler } from '../../../shared/triggers/media-uploaded.js';
import { makeMemoryLogger } from '../../support/memory-observability.js';
import { aMedia } from '../support/builders.js';
import { aServiceWorld, at, TENANT_ID, WORKSPACE_ID } from '../support/service-world.js';

/** The S3 notification for objects created at these keys (URL-encoded, as S3 sends them). */
function objectsCreated(...keys: string[]): S3Event {
  return {
    Records: keys.map((key) => ({ s3: { object: { key: encodeURIComponent(key).replace(/%2F/g, '/') } } })),
  } as unknown as S3Event;
}

async function setup() {
  const world = await aServiceWorld();
  const logger = makeMemoryLogger();
  const onObjectCreated = makeMediaUploadedHandler({ ...world, logger });
  return { ...world, logger, onObjectCreated };
}

describe('auto-confirm on object created', () => {
  it('confirms the upload the notification reports', async () => {
    const { onObjectCreated, media, storage, clock } = await setup();
    const pending = aMedia({ status: 'pending' });
    await media.put(pending);
    await storage.put(pending.objectKey ?? '', Buffer.alloc(pending.sizeBytes), pending.mimeType);
    clock.advance(2_000);

    await onObjectCreated(objectsCreated(pending.objectKey ?? ''));

    expect(await media.get(TENANT_ID, WORKSPACE_ID, pending.mediaId)).toEqual({
      ...pending,
      status: 'uploaded',
      uploadedAt: at(2_000),
    });
  });

  it('leaves an object that is not what was declared pending, logs why, and goes on with the rest', async () => {
    const { onObjectCreated, media, storage, logger } = await setup();
    const wrong = aMedia({ status: 'pending' });
    const right = aMedia({ mediaId: 'med_01JD0000000000000000000001', status: 'pending' });
    await media.put(wrong);
    await media.put(right);
    await storage.put(wrong.objectKey ?? '', Buffer.alloc(1), 'image/png');
    await storage.put(right.objectKey ?? '', Buffer.alloc(right.sizeBytes), right.mimeType);

    await onObjectCreated(objectsCreated(wrong.objectKey ?? '', right.objectKey ?? ''));

    expect((await media.get(TENANT_ID, WORKSPACE_ID, wrong.mediaId))?.status).toBe('pending');
    expect((await media.get(TENANT_ID, WORKSPACE_ID, right.mediaId))?.status).toBe('uploaded');
    expect(logger.entries).toEqual([
      expect.objectContaining({
        level: 'warn',
        fields: expect.objectContaining({ mediaId: wrong.mediaId, code: 'upload_incomplete' }),
      }),
    ]);
  });

  it('ignores keys that are not uploads (URL media stored at delivery, anything else)', async () => {
    const { onObjectCreated, media, logger } = await setup();
    const pending = aMedia({ status: 'pending' });
    await media.put(pending);

    await onObjectCreated(
      objectsCreated(
        `t/${TENANT_ID}/w/${WORKSPACE_ID}/p/pst_01JD0000000000000000000000/0`,
        'elsewhere/file.png',
      ),
    );

    expect(media.all()).toEqual([pending]);
    expect(logger.entries).toEqual([]);
  });

  it('an upload of media that was deleted meanwhile is logged as not found, not thrown', async () => {
    const { onObjectCreated, logger } = await setup();

    await onObjectCreated(objectsCreated(aMedia().objectKey ?? ''));

    expect(logger.entries.map((entry) => entry.fields.code)).toEqual(['not_found']);
  });
});
