import { resolve } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { DynamoConnection } from '../../shared/adapters/dynamodb/client.js';
import type { TableNames } from '../../shared/adapters/dynamodb/tables.js';
import { defaultDataDir, type LocalHostFile, readHostFile } from '../local/host-file.js';
import { TargetError } from './errors.js';

/** Where the tables live and how to tell a person about it. */
export interface Target {
  description: string;
  connection: DynamoConnection;
  tables: TableNames;
  /** Said when the DynamoDB endpoint refuses connections (a local host that died without cleaning up). */
  unreachableHint?: string;
  /** Where the target's dashboard is (no trailing slash), for one-time links; absent when unknown. */
  dashboardUrl?: string;
}

export interface TargetOptions {
  dataDir?: string;
  stack?: string;
  region?: string;
}

export type CloudFormationFactory = (config: { region?: string }) => CloudFormationClient;

export interface TargetDeps {
  env: NodeJS.ProcessEnv;
  /** Tests hand in a mocked client; otherwise one per call with the default credential chain. */
  cloudFormation?: CloudFormationFactory;
}

/** The CDK stack's output keys that name the tables (infra/ exports exactly these). */
export const STACK_OUTPUTS = {
  main: 'MainTableName',
  rateLimits: 'RateLimitsTableName',
  idempotency: 'IdempotencyTableName',
} as const;

/** The optional output naming the dashboard's address (one-time links are printed under it). */
export const DASHBOARD_URL_OUTPUT = 'DashboardUrl';

export function resolveTarget(options: TargetOptions, deps: TargetDeps): Promise<Target> {
  if (options.stack !== undefined) return stackTarget(options.stack, options.region, deps);
  return Promise.resolve(localTarget(options.dataDir, deps.env));
}

function localTarget(dataDirOption: string | undefined, env: NodeJS.ProcessEnv): Target {
  const dataDir = dataDirOption === undefined ? defaultDataDir(env) : resolve(dataDirOption);
  const startHint = `Start it with \`npm start\` (with the same DATA_DIR), or target a deployed stack with --stack NAME.`;
  let file: LocalHostFile | undefined;
  try {
    file = readHostFile(dataDir);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TargetError(`The local host file in ${dataDir} cannot be read (${reason}). ${startHint}`);
  }
  if (!file) throw new TargetError(`No local host is running for the data folder ${dataDir}. ${startHint}`);
  if (!isString(file.dynamodbEndpoint) || !isString(file.region) || !isString(file.tables?.main)) {
    throw new TargetError(
      `The local host file in ${dataDir} lacks the DynamoDB endpoint or tables. ${startHint}`,
    );
  }
  return {
    description: `local host (data folder ${dataDir}, DynamoDB ${file.dynamodbEndpoint}, table ${file.tables.main})`,
    connection: { region: file.region, endpoint: file.dynamodbEndpoint },
    tables: file.tables,
    ...(isString(file.baseUrl) && { dashboardUrl: `${file.baseUrl.replace(/\/+$/, '')}/dashboard` }),
    unreachableHint:
      `The local host of ${dataDir} does not answer at ${file.dynamodbEndpoint}: it has probably stopped ` +
      `without cleaning up. ${startHint}`,
  };
}

async function stackTarget(stackName: string, region: string | undefined, deps: TargetDeps): Promise<Target> {
  const config = region === undefined ? {} : { region };
  const client = deps.cloudFormation?.(config) ?? new CloudFormationClient(config);
  try {
    let stack: Awaited<ReturnType<typeof describe>>;
    try {
      stack = await describe(client, stackName);
    } catch (error) {
      // Missing credentials, unknown stack, no region: all the operator's to fix, none a bug.
      const reason = error instanceof Error ? error.message : String(error);
      throw new TargetError(`Cannot read the stack ${stackName}${region ? ` in ${region}` : ''}: ${reason}`);
    }
    if (!stack) throw new TargetError(`The stack ${stackName} does not exist.`);
    const outputs = new Map((stack.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue]));
    const output = (key: string): string => {
      const value = outputs.get(key);
      if (value) return value;
      const present = [...outputs.keys()].filter(isString);
      throw new TargetError(
        `The stack ${stackName} (${stack.StackStatus ?? 'unknown status'}) has no output ${key}; ` +
          `its outputs: ${present.length > 0 ? present.join(', ') : 'none'}. ` +
          `Is it this service's stack, fully deployed?`,
      );
    };
    const tables = {
      main: output(STACK_OUTPUTS.main),
      rateLimits: output(STACK_OUTPUTS.rateLimits),
      idempotency: output(STACK_OUTPUTS.idempotency),
    };
    const resolvedRegion = region ?? (await client.config.region());
    const dashboardUrl = outputs.get(DASHBOARD_URL_OUTPUT)?.replace(/\/+$/, '');
    return {
      description: `stack ${stackName} (${resolvedRegion}, table ${tables.main})`,
      connection: { region: resolvedRegion },
      tables,
      ...(dashboardUrl && { dashboardUrl }),
    };
  } finally {
    client.destroy();
  }
}

async function describe(client: CloudFormationClient, stackName: string) {
  const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
  return Stacks?.[0];
}

function isString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
