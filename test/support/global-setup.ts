import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../infra/local/dynamodb-local.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

let dynamodb: DynamoDbLocal | undefined;

/** Starts DynamoDB Local (in memory) once for every test file, and stops it after the run. */
export async function setup(project: TestProject) {
  dynamodb = await startDynamoDbLocal();
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
}

export async function teardown() {
  await dynamodb?.stop();
}
