import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { expect, inject } from 'vitest';
import { runAdmin } from '../../infra/admin/run.js';
import { writeHostFile } from '../../infra/local/host-file.js';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { ensureTables } from '../../shared/adapters/dynamodb/create-tables.js';
import { localTableNames } from '../../shared/adapters/dynamodb/tables.js';
import { makeDynamoTenancyStore } from '../../shared/adapters/dynamodb/tenancy-store.js';
import type { TenancyStore } from '../../shared/ports/tenancy-store.js';

const REGION = 'us-east-1';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** The CLI's environment; by default DATA_DIR names the fixture's host folder. */
  env?: NodeJS.ProcessEnv;
  cloudFormation?: (config: { region?: string }) => CloudFormationClient;
}

export interface AdminCliFixture {
  client: DynamoDBClient;
  store: TenancyStore;
  /** Holds the host file that points the CLI at the fixture's tables. */
  dataDir: string;
  /** A new empty folder, removed by close(). */
  tempDir(): string;
  /** Runs the admin CLI in process and collects its output. */
  cli(argv: string[], options?: CliOptions): Promise<CliResult>;
  /** Runs a command that must succeed with --json and returns its one object. */
  cliJson<T>(argv: string[]): Promise<T>;
  close(): void;
}

/**
 * Tables of their own on the suite's DynamoDB Local, and a host file that points the admin CLI
 * at them, as `npm start` would write it (no HTTP server: the CLI only talks to the tables).
 */
export async function startAdminCliFixture(name: string): Promise<AdminCliFixture> {
  const tempDirs: string[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), `${name}-`));
    tempDirs.push(dir);
    return dir;
  };
  const removeTempDirs = () => {
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  };

  const endpoint = inject('dynamodbEndpoint');
  const names = localTableNames(`${name}-${randomBytes(4).toString('hex')}-`);
  const client = makeDynamoClient({ region: REGION, endpoint });
  let store: TenancyStore;
  let dataDir: string;
  try {
    await ensureTables(client, names);
    store = makeDynamoTenancyStore(makeDocumentClient(client), names.main);
    dataDir = tempDir();
    writeHostFile(dataDir, {
      pid: process.pid,
      baseUrl: 'http://127.0.0.1:1',
      region: REGION,
      dynamodbEndpoint: endpoint,
      s3Endpoint: 'http://127.0.0.1:1',
      mediaBucket: 'media',
      tables: names,
    });
  } catch (error) {
    client.destroy();
    removeTempDirs();
    throw error;
  }

  const cli = async (argv: string[], options: CliOptions = {}): Promise<CliResult> => {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(argv, {
      env: options.env ?? { DATA_DIR: dataDir },
      stdout: { write: (chunk: string) => (stdout += chunk) },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      ...(options.cloudFormation && { cloudFormation: options.cloudFormation }),
    });
    return { code, stdout, stderr };
  };

  return {
    client,
    store,
    dataDir,
    tempDir,
    cli,
    async cliJson<T>(argv: string[]): Promise<T> {
      const result = await cli([...argv, '--json']);
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(result.stderr).toBe('');
      return JSON.parse(result.stdout) as T;
    },
    close() {
      client.destroy();
      removeTempDirs();
    },
  };
}
