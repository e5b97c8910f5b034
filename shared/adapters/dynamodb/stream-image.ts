import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { fromItem } from './keys.js';

/** An item of the main table as a stream record carries it: its type tag and the entity it stores. */
export interface StreamItem<T> {
  /** The item's `entity` attribute (toItem's type tag); unknown, as any item may be on the stream. */
  entity: unknown;
  /** The entity's own fields, without the table's key attributes (as `fromItem`, unchecked). */
  value: T;
}

/**
 * A stream record's image (NewImage or OldImage) back as the entity it stores; undefined when the
 * record has none (a removal has no new image, an insert no old one).
 */
export function itemOfStreamImage<T = Record<string, unknown>>(
  image: Readonly<Record<string, unknown>> | undefined,
): StreamItem<T> | undefined {
  if (!image) return undefined;
  // The Lambda event's AttributeValue type and the SDK's describe the same wire format.
  const item = unmarshall(image as Record<string, AttributeValue>);
  return { entity: item.entity, value: fromItem<T>(item) };
}
