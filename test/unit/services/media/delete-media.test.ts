import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../../shared/domain/errors.js';
import { makeDeleteMedia } from '../../../../shared/services/media/delete-media.js';
import { aMedia } from '../../support/builders.js';
import { aServiceWorld, TENANT_ID, WORKSPACE_ID } from '../../support/service-world.js';

describe('delete media', () => {
  it('removes the object and the record', async () => {
    const world = await aServiceWorld();
    const item = aMedia();
    const other = aMedia({ mediaId: 'med_01JD0000000000000000000001' });
    for (const media of [item, other]) {
      await world.media.put(media);
      await world.storage.put(media.objectKey ?? '', Buffer.alloc(media.sizeBytes), media.mimeType);
    }

    await makeDeleteMedia(world)(TENANT_ID, WORKSPACE_ID, item.mediaId);

    expect(world.media.all()).toEqual([other]);
    expect(world.storage.keys()).toEqual([other.objectKey]);
  });

  it('removes a record whose object was never uploaded', async () => {
    const world = await aServiceWorld();
    await world.media.put(aMedia({ status: 'pending' }));

    await makeDeleteMedia(world)(TENANT_ID, WORKSPACE_ID, aMedia().mediaId);

    expect(world.media.all()).toEqual([]);
  });

  it('answers 404 for media that does not exist here, and deletes nothing', async () => {
    const world = await aServiceWorld();
    const elsewhere = aMedia({ workspaceId: 'wks_01JD0000000000000000000009' });
    await world.media.put(elsewhere);
    await world.storage.put(elsewhere.objectKey ?? '', Buffer.alloc(1), 'image/png');

    const error = await makeDeleteMedia(world)(TENANT_ID, WORKSPACE_ID, elsewhere.mediaId).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(NotFoundError);
    expect(world.media.all()).toEqual([elsewhere]);
    expect(world.storage.deleted).toEqual([]);
  });
});
