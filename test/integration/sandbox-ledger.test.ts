import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../shared/adapters/dynamodb/create-tables.js';
import { makeDynamoSandboxLedger } from '../../shared/adapters/dynamodb/sandbox-ledger.js';
import { localTableNames } from '../../shared/adapters/dynamodb/tables.js';
import type { SandboxLedger, SandboxPublication } from '../../shared/networks/sandbox/ledger.js';

const publication = (n: number): SandboxPublication => ({
  platformPostId: `sandbox-${n}`,
  platformPostUrl: `https://sandbox.example/posts/sandbox-${n}`,
  publishedAt: `2099-01-01T00:00:0${n}.000Z`,
});

describe("the sandbox network's ledger on DynamoDB Local", () => {
  const client = makeDynamoClient({ region: 'us-east-1', endpoint: inject('dynamodbEndpoint') });
  let ledger: SandboxLedger;
  const calls: string[] = [];

  beforeAll(async () => {
    const names = localTableNames(`sl${Math.random().toString(36).slice(2, 8)}-`);
    await ensureTables(client, names);
    client.middlewareStack.add(
      (next, context) => (args) => {
        calls.push(context.commandName ?? '?');
        return next(args);
      },
      { step: 'initialize', name: 'countCalls' },
    );
    ledger = makeDynamoSandboxLedger(makeDocumentClient(client), names.main);
  });
  afterAll(() => client.destroy());

  it('records a new publication and answers it, in one call', async () => {
    calls.length = 0;
    expect(await ledger.record('pst_new', publication(1))).toEqual(publication(1));
    expect(calls).toEqual(['PutItemCommand']);
    expect(await ledger.find('pst_new')).toEqual(publication(1));
  });

  it('answers a repeat with the first publication, in one call, and keeps it', async () => {
    await ledger.record('pst_repeat', publication(1));
    calls.length = 0;
    expect(await ledger.record('pst_repeat', publication(2))).toEqual(publication(1));
    expect(calls).toEqual(['PutItemCommand']);
    expect(await ledger.find('pst_repeat')).toEqual(publication(1));
  });

  it('lets one of many racing writers win, and answers every one with the winner', async () => {
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => ledger.record('pst_race', publication(n))));
    const stored = await ledger.find('pst_race');
    expect(stored).toBeDefined();
    for (const answer of answers) expect(answer).toEqual(stored);
  });

  it('finds nothing for a reference it never recorded', async () => {
    expect(await ledger.find('pst_never')).toBeUndefined();
  });
});
