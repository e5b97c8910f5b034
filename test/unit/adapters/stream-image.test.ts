import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys, toItem } from '../../../shared/adapters/dynamodb/keys.js';
import { itemOfStreamImage } from '../../../shared/adapters/dynamodb/stream-image.js';
import { aMedia } from '../support/builders.js';

describe('itemOfStreamImage', () => {
  it('gives back the entity a stream image stores, its type tag apart and without the key attributes', () => {
    // Prepare
    const media = aMedia({ status: 'pending', source: 'url', sourceUrl: 'https://example.com/a.png' });
    const image = marshall(
      toItem('media', keys.media(media.tenantId, media.workspaceId, media.mediaId), media),
      { removeUndefinedValues: true },
    );

    // Act
    const item = itemOfStreamImage(image);

    // Assess
    expect(item).toEqual({ entity: 'media', value: media });
  });

  it('has nothing for a record without the image (a removal has no new image, an insert no old one)', () => {
    expect(itemOfStreamImage(undefined)).toBeUndefined();
  });
});
