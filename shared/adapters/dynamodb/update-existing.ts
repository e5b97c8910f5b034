import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../../domain/errors.js';
import { fromItem } from './keys.js';

/**
 * Updates an item that must exist and answers it as it is now: NotFoundError (`what` names it)
 * when there is no such item, and nothing is written.
 */
export async function updateExisting<T>(
  db: DynamoDBDocumentClient,
  input: Omit<UpdateCommandInput, 'ConditionExpression' | 'ReturnValues'>,
  what: string,
): Promise<T> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({ ...input, ConditionExpression: 'attribute_exists(pk)', ReturnValues: 'ALL_NEW' }),
    );
    return fromItem<T>(Attributes ?? {});
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NotFoundError(`No such ${what}.`);
    throw error;
  }
}
