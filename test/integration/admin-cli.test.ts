import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveTarget, STACK_OUTPUTS } from '../../infra/admin/target.js';
import { freePort } from '../../infra/local/free-port.js';
import { writeHostFile } from '../../infra/local/host-file.js';
import { localTableNames, TABLES } from '../../shared/adapters/dynamodb/tables.js';
import { hashApiKey } from '../../shared/domain/api-keys.js';
import { isIdOf } from '../../shared/domain/ids.js';
import { PLATFORMS } from '../../shared/domain/platforms.js';
import type { Account, Agent, ApiKeyRecord, Tenant, Workspace } from '../../shared/domain/tenancy.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { type AdminCliFixture, startAdminCliFixture } from '../support/admin-cli-fixture.js';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const REGION = 'us-east-1';
const KEY_PATTERN = /^smcp_[0-9a-f]{64}$/;

/** The admin CLI, pointed at tables of this file's own on the suite's DynamoDB Local. */
let fx: AdminCliFixture;

beforeAll(async () => {
  fx = await startAdminCliFixture('admin-cli');
});

afterAll(() => fx?.close());

describe('admin CLI against the local host', () => {
  it('bootstrap --json prints one object: a stored key and a sandbox account per platform', async () => {
    const result = await fx.cliJson<BootstrapResult>(['bootstrap', '--name', 'Acme', '--plan', 'pro']);

    expect(result.apiKey).toMatch(KEY_PATTERN);
    expect(Object.keys(result.accounts).sort()).toEqual([...PLATFORMS].sort());
    expect(Object.values(result.accounts).every((id) => isIdOf('account', id))).toBe(true);
    const record = await fx.store.getApiKeyByHash(hashApiKey(result.apiKey));
    expect(record).toMatchObject({ tenantId: result.tenantId, agentId: result.agentId });
    expect(record?.revokedAt).toBeUndefined();
    expect(await fx.store.getTenant(result.tenantId)).toMatchObject({ name: 'Acme', planTier: 'pro' });
    const twitter = await fx.store.getAccount(result.tenantId, result.workspaceId, result.accounts.twitter);
    expect(twitter).toMatchObject({ platform: 'twitter', sandbox: true, status: 'connected' });
  });

  it('bootstrap without --json shows the key once, with the warning', async () => {
    const result = await fx.cli(['bootstrap']);

    expect(result.code).toBe(0);
    const key = result.stdout.match(/smcp_[0-9a-f]{64}/)?.[0];
    expect(key).toBeDefined();
    expect(await fx.store.getApiKeyByHash(hashApiKey(key ?? ''))).toBeDefined();
    expect(result.stdout).toContain('cannot be shown again');
    expect(result.stderr).toContain('target: local host');
  });

  it('creates tenant, workspaces and the three kinds of agent (an all-workspaces one as super-admin)', async () => {
    const tenant = await fx.cliJson<Tenant>(['create-tenant', '--name', 'Globex']);
    expect(tenant).toMatchObject({ name: 'Globex', planTier: 'free', planStatus: 'active' });
    const a = await fx.cliJson<Workspace>(['create-workspace', '--tenant', tenant.tenantId, '--name', 'A']);
    const b = await fx.cliJson<Workspace>(['create-workspace', '--tenant', tenant.tenantId, '--name', 'B']);
    expect(await fx.store.getWorkspace(tenant.tenantId, b.workspaceId)).toMatchObject({ name: 'B' });

    const all = await fx.cliJson<Agent>([
      'create-agent',
      '--tenant',
      tenant.tenantId,
      '--name',
      'ops',
      '--all',
    ]);
    expect(all.scope).toEqual({ kind: 'all' });
    expect(await fx.store.getAgent(tenant.tenantId, all.agentId)).toMatchObject({ scope: { kind: 'all' } });

    const selected = await fx.cliJson<Agent>([
      'create-agent',
      ...['--tenant', tenant.tenantId, '--name', 'reader'],
      ...['--workspaces', `${a.workspaceId},${b.workspaceId}`, '--permissions', 'posts:read,accounts:read'],
    ]);
    expect(selected.scope).toEqual({ kind: 'selected', workspaceIds: [a.workspaceId, b.workspaceId] });
    expect(selected.lockedWorkspaceId).toBeUndefined();
    expect((await fx.store.getAgent(tenant.tenantId, selected.agentId))?.permissions).toEqual([
      'posts:read',
      'accounts:read',
    ]);

    const locked = await fx.cliJson<Agent>([
      ...['create-agent', '--tenant', tenant.tenantId, '--name', 'bot', '--workspace', a.workspaceId],
    ]);
    expect(locked).toMatchObject({ lockedWorkspaceId: a.workspaceId, scope: { kind: 'selected' } });
    expect(locked.permissions).toContain('approvals:decide');
  });

  it('refuses an agent over a workspace of another tenant', async () => {
    const mine = await fx.cliJson<Tenant>(['create-tenant', '--name', 'Mine']);
    const theirs = await fx.cliJson<BootstrapResult>(['bootstrap', '--name', 'Theirs']);

    const result = await fx.cli([
      ...['create-agent', '--tenant', mine.tenantId, '--name', 'x', '--workspaces', theirs.workspaceId],
      '--json',
    ]);

    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: 'not_found' });
  });

  it('create-key prints the key but never its hash; revoking twice is a conflict', async () => {
    const boot = await fx.cliJson<BootstrapResult>(['bootstrap']);
    const created = await fx.cliJson<Omit<ApiKeyRecord, 'keyHash'> & { apiKey: string }>([
      ...['create-key', '--tenant', boot.tenantId, '--agent', boot.agentId],
    ]);
    expect(created.apiKey).toMatch(KEY_PATTERN);
    expect(created).not.toHaveProperty('keyHash');
    expect(JSON.stringify(created)).not.toContain(hashApiKey(created.apiKey));

    const revoked = await fx.cliJson<ApiKeyRecord>([
      'revoke-key',
      '--tenant',
      boot.tenantId,
      '--key',
      created.keyId,
    ]);
    expect(revoked.revokedAt).toBeDefined();
    expect(revoked).not.toHaveProperty('keyHash');
    expect((await fx.store.getApiKeyByHash(hashApiKey(created.apiKey)))?.revokedAt).toBe(revoked.revokedAt);

    const again = await fx.cli(['revoke-key', '--tenant', boot.tenantId, '--key', created.keyId, '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({
      error: 'conflict',
      message: 'The API key is already revoked.',
    });

    const human = await fx.cli(['revoke-key', '--tenant', boot.tenantId, '--key', created.keyId]);
    expect(human.code).toBe(1);
    expect(human.stdout).toBe('');
    expect(human.stderr).toContain('error: The API key is already revoked.');
    expect(human.stderr).not.toMatch(/\n\s+at /);
  });

  it('delete-agent marks it deleted, and it can get no new key', async () => {
    const boot = await fx.cliJson<BootstrapResult>(['bootstrap']);
    const deleted = await fx.cliJson<Agent>([
      'delete-agent',
      '--tenant',
      boot.tenantId,
      '--agent',
      boot.agentId,
    ]);
    expect(deleted.deletedAt).toBeDefined();
    expect((await fx.store.getAgent(boot.tenantId, boot.agentId))?.deletedAt).toBe(deleted.deletedAt);

    const result = await fx.cli(['create-key', '--tenant', boot.tenantId, '--agent', boot.agentId]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: No agent agt_/m);
  });

  it('create-sandbox-account stores x as twitter', async () => {
    const boot = await fx.cliJson<BootstrapResult>(['bootstrap']);
    const account = await fx.cliJson<Account>([
      ...['create-sandbox-account', '--tenant', boot.tenantId, '--workspace', boot.workspaceId],
      ...['--platform', 'X', '--handle', '@second'],
    ]);
    expect(account).toMatchObject({ platform: 'twitter', handle: '@second', sandbox: true });
    expect(await fx.store.getAccount(boot.tenantId, boot.workspaceId, account.accountId)).toMatchObject({
      platform: 'twitter',
    });
  });

  it('set-plan changes the stored tenant', async () => {
    const boot = await fx.cliJson<BootstrapResult>(['bootstrap']);
    const tenant = await fx.cliJson<Tenant>(['set-plan', '--tenant', boot.tenantId, '--status', 'inactive']);
    expect(tenant.planStatus).toBe('inactive');
    expect(await fx.store.getTenant(boot.tenantId)).toMatchObject({
      planStatus: 'inactive',
      planTier: 'free',
    });

    const human = await fx.cli(['set-plan', '--tenant', boot.tenantId, '--tier', 'enterprise']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('plan enterprise, inactive');
    expect(await fx.store.getTenant(boot.tenantId)).toMatchObject({ planTier: 'enterprise' });
  });

  it('finds the host through --data-dir without DATA_DIR', async () => {
    const result = await fx.cli(['create-tenant', '--name', 'Via flag', '--data-dir', fx.dataDir, '--json'], {
      env: {},
    });
    expect(result.code).toBe(0);
    const tenant = JSON.parse(result.stdout) as Tenant;
    expect(await fx.store.getTenant(tenant.tenantId)).toMatchObject({ name: 'Via flag' });
  });
});

describe('admin CLI failures', () => {
  it('without a host file, says to start the host with npm start', async () => {
    const empty = fx.tempDir();
    const result = await fx.cli(['bootstrap'], { env: { DATA_DIR: empty } });

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`No local host is running for the data folder ${empty}`);
    expect(result.stderr).toContain('npm start');

    const json = await fx.cli(['bootstrap', '--json'], { env: { DATA_DIR: empty } });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: 'target_unavailable' });
  });

  it('a host file whose DynamoDB no longer answers is reported as a stopped host', async () => {
    const stale = fx.tempDir();
    const port = await freePort();
    writeHostFile(stale, {
      pid: process.pid,
      baseUrl: 'http://127.0.0.1:1',
      region: REGION,
      dynamodbEndpoint: `http://127.0.0.1:${port}`,
      s3Endpoint: 'http://127.0.0.1:1',
      mediaBucket: 'media',
      tables: localTableNames('stale-'),
    });

    const result = await fx.cli(['create-tenant', '--name', 'x'], { env: { DATA_DIR: stale } });

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('does not answer');
    expect(result.stderr).toContain('npm start');
  });

  it('bad usage exits 2 with a hint, before looking for a host', async () => {
    const noHost = { env: { DATA_DIR: fx.tempDir() } };
    const unknown = await fx.cli(['frobnicate'], noHost);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
    expect(unknown.stderr).toContain('help');

    expect((await fx.cli(['create-tenant'], noHost)).code).toBe(2);
    expect((await fx.cli(['create-tenant', '--name', 'x', '--bogus'], noHost)).code).toBe(2);
    expect((await fx.cli(['create-tenant', '--name', 'x', '--agent', 'agt_x'], noHost)).code).toBe(2);
    expect((await fx.cli(['create-workspace', '--tenant', 'wks_nope', '--name', 'x'], noHost)).code).toBe(2);
    expect((await fx.cli(['set-plan', '--tenant', 'ten_01ARZ3NDEKTSV4RRFFQ69G5FAV'], noHost)).code).toBe(2);
    expect(
      (await fx.cli(['create-agent', '--tenant', 'ten_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--name', 'a'], noHost))
        .code,
    ).toBe(2);
    const badPermission = await fx.cli(
      [
        'create-agent',
        '--tenant',
        'ten_01ARZ3NDEKTSV4RRFFQ69G5FAV',
        '--name',
        'a',
        '--all',
        '--permissions',
        'root',
      ],
      noHost,
    );
    expect(badPermission.code).toBe(2);
    expect(badPermission.stderr).toContain('Unknown permission root');

    const bare = await fx.cli([], noHost);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('error: Name a command.');

    const json = await fx.cli(['frobnicate', '--json'], noHost);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: 'usage' });
  });

  it('help lists the commands and targets without needing a host', async () => {
    const result = await fx.cli(['help'], { env: { DATA_DIR: fx.tempDir() } });
    expect(result.code).toBe(0);
    for (const command of ['bootstrap', 'create-agent', 'revoke-key', 'set-plan', '--stack', '--data-dir']) {
      expect(result.stdout).toContain(command);
    }
    const one = await fx.cli(['create-key', '--help'], { env: {} });
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('--tenant ten_… --agent agt_…');
  });
});

describe('admin CLI --stack', () => {
  const cloudFormation = mockClient(CloudFormationClient);
  afterEach(() => cloudFormation.reset());
  afterAll(() => cloudFormation.restore());

  const stackWith = (outputs: Record<string, string>) => ({
    Stacks: [
      {
        StackName: 'social-prod',
        StackStatus: 'UPDATE_COMPLETE' as const,
        CreationTime: new Date(),
        Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
      },
    ],
  });

  it('reads the table names from the stack outputs, in the region given', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves(
      stackWith({
        MainTableName: 'prod-main',
        RateLimitsTableName: 'prod-rate',
        IdempotencyTableName: 'prod-idem',
        Other: 'x',
      }),
    );
    const regions: (string | undefined)[] = [];

    const target = await resolveTarget(
      { stack: 'social-prod', region: 'eu-west-1' },
      {
        env: {},
        cloudFormation: (config) => {
          regions.push(config.region);
          return new CloudFormationClient(config);
        },
      },
    );

    expect(target.tables).toEqual({ main: 'prod-main', rateLimits: 'prod-rate', idempotency: 'prod-idem' });
    expect(target.connection).toEqual({ region: 'eu-west-1' });
    expect(regions).toEqual(['eu-west-1']);
    const calls = cloudFormation.commandCalls(DescribeStacksCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input.StackName).toBe('social-prod');
  });

  it('runs the command against the stack tables', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves(
      stackWith({
        MainTableName: 'prod-main',
        RateLimitsTableName: 'prod-rate',
        IdempotencyTableName: 'prod-idem',
      }),
    );
    // No AWS here: the document client is mocked, to see which table the tenant is written to.
    const documents = mockClient(DynamoDBDocumentClient);
    documents.on(PutCommand).resolves({});
    try {
      const result = await fx.cli([
        'create-tenant',
        '--name',
        'Prod',
        '--stack',
        'social-prod',
        '--region',
        'eu-west-1',
      ]);

      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('stack social-prod (eu-west-1, table prod-main)');
      const puts = documents.commandCalls(PutCommand);
      expect(puts).toHaveLength(1);
      expect(puts[0]?.args[0].input).toMatchObject({ TableName: 'prod-main', Item: { name: 'Prod' } });
    } finally {
      documents.restore();
    }
    expect(cloudFormation.commandCalls(DescribeStacksCommand)[0]?.args[0].input.StackName).toBe(
      'social-prod',
    );
  });

  it('a stack without the table outputs is a clear error', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves(stackWith({ RateLimitsTableName: 'prod-rate' }));

    const result = await fx.cli(['bootstrap', '--stack', 'social-prod', '--region', 'eu-west-1']);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The stack social-prod (UPDATE_COMPLETE) has no output MainTableName');
    expect(result.stderr).toContain('RateLimitsTableName');
    expect(cloudFormation.commandCalls(DescribeStacksCommand)[0]?.args[0].input.StackName).toBe(
      'social-prod',
    );
  });

  it('an unknown stack is a clear error, without a stack trace', async () => {
    cloudFormation.on(DescribeStacksCommand).rejects(new Error('Stack with id nope does not exist'));

    const result = await fx.cli(['bootstrap', '--stack', 'nope', '--region', 'eu-west-1', '--json']);

    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: 'target_unavailable',
      message: 'Cannot read the stack nope in eu-west-1: Stack with id nope does not exist',
    });
  });

  it('reads the output keys the CDK stack exports', async () => {
    // Imported here, not at the top: the CLI must not load aws-cdk-lib, and this file should not either.
    const { tableOutputKey } = await import('../../infra/stacks/service-stack.js');
    expect(STACK_OUTPUTS).toEqual(
      Object.fromEntries(TABLES.map((table) => [table.name, tableOutputKey(table)])),
    );
  });

  it('--stack and --data-dir together are bad usage', async () => {
    const result = await fx.cli(['bootstrap', '--stack', 's', '--data-dir', fx.dataDir]);
    expect(result.code).toBe(2);
    expect(cloudFormation.commandCalls(DescribeStacksCommand)).toHaveLength(0);
  });
});

describe('admin CLI as a process', () => {
  it('npm run -s admin -- bootstrap --json prints nothing but the JSON object', {
    timeout: 30_000,
  }, async () => {
    const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'admin', '--', 'bootstrap', '--json'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: fx.dataDir },
      timeout: 25_000,
    });

    const result = JSON.parse(stdout) as BootstrapResult;
    expect(result.apiKey).toMatch(KEY_PATTERN);
    expect(Object.keys(result.accounts)).toHaveLength(PLATFORMS.length);
    expect(await fx.store.getApiKeyByHash(hashApiKey(result.apiKey))).toMatchObject({
      tenantId: result.tenantId,
    });
  });
});
