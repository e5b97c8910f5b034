import { randomBytes } from 'node:crypto';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SQSClient } from '@aws-sdk/client-sqs';
import { inject } from 'vitest';
import type { DynamoConnection } from '../../shared/adapters/dynamodb/client.js';

/** LocalStack takes any key pair; these fixed ones keep the SDK from reading the machine's. */
export const LOCALSTACK_CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' } as const;

/** LocalStack's account id (ARNs it makes carry it). */
export const LOCALSTACK_ACCOUNT = '000000000000';

export function localstack() {
  return inject('localstack');
}

/** A name no other run uses: resources of one run never meet another's, and cleanup is by name. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** What the project's own DynamoDB factory takes (an endpoint: DynamoDB Local or LocalStack alike). */
export function dynamoConnection(): DynamoConnection {
  const { endpoint, region } = localstack();
  return { region, endpoint };
}

/**
 * Clients the service builds without an endpoint in AWS (SQS, Scheduler), here pointed at LocalStack. An explicit endpoint also stops SQS from
 * sending to the host named in a queue URL.
 */
export function localstackClientConfig() {
  const { endpoint, region } = localstack();
  return { region, endpoint, credentials: { ...LOCALSTACK_CREDENTIALS } };
}

export const makeSqsClient = () => new SQSClient(localstackClientConfig());
export const makeSchedulerClient = () => new SchedulerClient(localstackClientConfig());
