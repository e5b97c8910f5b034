/**
 * Every AWS call the adapters of shared/adapters/ make, and the file of this suite that makes it
 * against the emulator through the adapter itself:
 *
 * | service | call (SDK command in the adapter) | adapter | covered in |
 * |---|---|---|---|
 * | DynamoDB | CreateTable, DescribeTable (and `waitUntilTableExists`), UpdateTable, UpdateTimeToLive | create-tables.ts | dynamodb.test.ts |
 * | DynamoDB | PutItem (`PutCommand`), GetItem (`GetCommand`), Query (`QueryCommand`), BatchGetItem (`BatchGetCommand`) | tenancy, post stores | dynamodb.test.ts |
 * | DynamoDB | UpdateItem (`UpdateCommand`, conditional) | tenancy store, rate limiter | dynamodb.test.ts |
 * | DynamoDB | DeleteItem (`DeleteCommand`, conditional, ALL_OLD) | OAuth state store | dynamodb.test.ts |
 * | DynamoDB | BatchWriteItem (`BatchWriteCommand`) | event feed | dynamodb.test.ts |
 * | DynamoDB | TransactWriteItems (`TransactWriteCommand`), cancelled as a whole | post store | dynamodb.test.ts |
 * | DynamoDB Streams | (read by Lambda's event source mapping, not by an adapter) DescribeStream, GetShardIterator, GetRecords | outbox's input | dynamodb.test.ts |
 * | SQS | SendMessage (with DelaySeconds ≤ 900) | sqs-queue.ts | sqs.test.ts |
 * | EventBridge Scheduler | CreateSchedule, UpdateSchedule, DeleteSchedule | post-scheduler.ts | scheduler.test.ts |
 * | KMS | Encrypt, Decrypt (EncryptionContext, KeyId) | kms-secret-cipher.ts | kms.test.ts |
 * | Secrets Manager | GetSecretValue | secrets-manager-app-credentials.ts | secrets-manager.test.ts |
 * | S3 | PutObject, GetObject (whole, ranged, streamed), HeadObject, DeleteObject | s3-object-storage.ts, s3-media-bytes.ts | s3.test.ts |
 * | S3 | presigned PutObject and GetObject (`getSignedUrl`, no call at signing) | s3-object-storage.ts, s3-media-urls.ts | s3.test.ts |
 *
 * The test below keeps this list whole: it reads the adapters' sources and fails when one makes a
 * call the list does not name (add the call here, and a test of it in the file named).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ADAPTERS = fileURLToPath(new URL('../../shared/adapters/', import.meta.url));

/** The SDK commands, waiters and presigner the adapters use, by the name they have in the source. */
const COVERED: Readonly<Record<string, string>> = {
  CreateTableCommand: 'dynamodb.test.ts',
  DescribeTableCommand: 'dynamodb.test.ts',
  UpdateTableCommand: 'dynamodb.test.ts',
  UpdateTimeToLiveCommand: 'dynamodb.test.ts',
  waitUntilTableExists: 'dynamodb.test.ts',
  PutCommand: 'dynamodb.test.ts',
  GetCommand: 'dynamodb.test.ts',
  QueryCommand: 'dynamodb.test.ts',
  BatchGetCommand: 'dynamodb.test.ts',
  UpdateCommand: 'dynamodb.test.ts',
  DeleteCommand: 'dynamodb.test.ts',
  BatchWriteCommand: 'dynamodb.test.ts',
  TransactWriteCommand: 'dynamodb.test.ts',
  SendMessageCommand: 'sqs.test.ts',
  CreateScheduleCommand: 'scheduler.test.ts',
  UpdateScheduleCommand: 'scheduler.test.ts',
  DeleteScheduleCommand: 'scheduler.test.ts',
  EncryptCommand: 'kms.test.ts',
  DecryptCommand: 'kms.test.ts',
  GetSecretValueCommand: 'secrets-manager.test.ts',
  PutObjectCommand: 's3.test.ts',
  GetObjectCommand: 's3.test.ts',
  HeadObjectCommand: 's3.test.ts',
  DeleteObjectCommand: 's3.test.ts',
  getSignedUrl: 's3.test.ts',
};

async function sourcesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the AWS calls of the adapters', () => {
  it('are each named above, with the file of this suite that makes it', async () => {
    // Prepare
    const pattern = /\bnew ([A-Z][A-Za-z]+Command)\(|\b(waitUntil[A-Za-z]+)\(|\b(getSignedUrl)\(/g;

    // Act
    const used = new Set<string>();
    for (const file of await sourcesUnder(ADAPTERS)) {
      for (const match of (await readFile(file, 'utf8')).matchAll(pattern)) {
        used.add(match[1] ?? match[2] ?? match[3] ?? '');
      }
    }

    // Assess
    expect([...used].sort()).toEqual(Object.keys(COVERED).sort());
    for (const file of new Set(Object.values(COVERED))) {
      await expect(readFile(fileURLToPath(new URL(file, import.meta.url)), 'utf8')).resolves.toContain(
        'describe(',
      );
    }
  });
});
