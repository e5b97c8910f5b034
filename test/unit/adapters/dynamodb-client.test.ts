import { describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../../shared/adapters/dynamodb/client.js';

describe('the DynamoDB client', () => {
  it("has no SDK logger middleware (it filtered every call's input and output for a logger that discards them), the document client neither", () => {
    const client = makeDynamoClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1' });
    const documents = makeDocumentClient(client);

    const names = [...client.middlewareStack.identify(), ...documents.middlewareStack.identify()];

    expect(names.some((name) => name.startsWith('loggerMiddleware'))).toBe(false);
    // What is kept: the request is still signed and retried.
    expect(names.some((name) => name.startsWith('httpSigningMiddleware'))).toBe(true);
    expect(names.some((name) => name.startsWith('retryMiddleware'))).toBe(true);
    client.destroy();
  });
});
