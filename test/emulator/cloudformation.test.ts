/**
 * The CDK app's template deployed into moto's CloudFormation (issue 25, item 3): synthesized as
 * `npm run synth` makes it (cdk.json's context; bundling skipped, so each function's code is a
 * stand-in zip at the key the template names), its assets staged in moto's S3 where the template
 * expects them (the bootstrap bucket `cdk-hnb659fds-assets-<account>-<region>`), then CreateStack.
 *
 * It prints, per resource type, how many the template has and what became of them, and fails when
 * a type moto supports is not created, when one moto does not support starts being created (so
 * MOTO_UNSUPPORTED_TYPES and docs/deploy.md stay true), or when a table, queue, bucket or key that
 * CloudFormation lists does not exist in its own service. moto's statuses are not evidence
 * (ListStackResources says CREATE_COMPLETE for everything it holds), hence the service checks.
 * The changes made to the template for moto are in moto-template.ts, each with its reason.
 *
 * moto only: another emulator (LocalStack) deploys the stack with `cdklocal deploy` (docs/deploy.md).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  CloudFormationClient,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  paginateListStackResources,
  type StackResourceSummary,
} from '@aws-sdk/client-cloudformation';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetKeyRotationStatusCommand, KMSClient } from '@aws-sdk/client-kms';
import { CreateBucketCommand, HeadBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesize } from '../../scripts/synth-templates.js';
import { makeKmsSecretCipher } from '../../shared/adapters/kms/kms-secret-cipher.js';
import { type CfnTemplate, forMoto, MOTO_REMOVED_TYPES, MOTO_UNSUPPORTED_TYPES } from './moto-template.js';
import { clientConfig, emulator, uniqueName } from './support.js';

/** moto's default account (MOTO_ACCOUNT_ID changes it, for moto and for this test alike). */
const ACCOUNT = process.env.MOTO_ACCOUNT_ID || '123456789012';
/** A bootstrap version the template's rule accepts (6 or later). */
const BOOTSTRAP_VERSION = '30';
/** Synthesizing ~45 functions' stack takes tens of seconds on a busy 2-core machine. */
const SYNTH_TIMEOUT_MS = 240_000;

interface AssetManifest {
  files: Record<
    string,
    {
      source: { path: string; packaging?: 'zip' | 'file' };
      destinations: Record<string, { bucketName: string; objectKey: string }>;
    }
  >;
}

interface TypeReport {
  type: string;
  inTemplate: number;
  created: number;
  outcome: string;
}

/** Resource types whose physical resource this test looks up in its own service. */
const checkedInService = new Set([
  'AWS::DynamoDB::Table',
  'AWS::SQS::Queue',
  'AWS::S3::Bucket',
  'AWS::KMS::Key',
]);

const moto = emulator().moto;
if (!moto)
  console.warn('The CloudFormation deployment test runs against moto only; see docs/deploy.md for cdklocal.');

describe.runIf(moto)("the synthesized stack in moto's CloudFormation", () => {
  const config = clientConfig();
  const cloudformation = new CloudFormationClient(config);
  const s3 = new S3Client({ ...config, forcePathStyle: true });
  let workdir: string;
  let original: CfnTemplate;
  let stackName: string;
  let changes: string[];
  let listed: Map<string, StackResourceSummary>;
  let stackStatus: string | undefined;

  const pseudo: Record<string, string> = { AccountId: ACCOUNT, Region: config.region, Partition: 'aws' };
  const substitute = (text: string) =>
    text.replace(/\$\{AWS::(AccountId|Region|Partition)\}/g, (_, name: string) => pseudo[name] ?? name);

  /** What `cdk-assets` would publish: each asset at its destination (a stand-in zip for function code). */
  const stageAssets = async (assetsPath: string, outdir: string) => {
    const manifest = JSON.parse(await readFile(assetsPath, 'utf8')) as AssetManifest;
    await writeFile(
      join(workdir, 'index.mjs'),
      'export const handler = async () => ({ statusCode: 204 });\n',
    );
    await promisify(execFile)(
      process.env.PYTHON || 'python3',
      ['-m', 'zipfile', '-c', 'code.zip', 'index.mjs'],
      {
        cwd: workdir,
      },
    );
    const standIn = await readFile(join(workdir, 'code.zip'));
    const buckets = new Set<string>();
    for (const asset of Object.values(manifest.files)) {
      const body =
        asset.source.packaging === 'zip' ? standIn : await readFile(join(outdir, asset.source.path));
      for (const destination of Object.values(asset.destinations)) {
        const bucket = substitute(destination.bucketName);
        if (!buckets.has(bucket)) {
          await s3.send(new CreateBucketCommand({ Bucket: bucket })).catch((error: { name?: string }) => {
            if (error.name !== 'BucketAlreadyOwnedByYou') throw error;
          });
          buckets.add(bucket);
        }
        await s3.send(new PutObjectCommand({ Bucket: bucket, Key: destination.objectKey, Body: body }));
      }
    }
  };

  beforeAll(async () => {
    workdir = await mkdtemp(join(tmpdir(), 'moto-stack-'));
    const outdir = join(workdir, 'cdk.out');
    const [stack] = await synthesize(outdir);
    if (!stack?.assetsPath) throw new Error('the app synthesized no stack with assets');
    original = JSON.parse(await readFile(stack.templatePath, 'utf8')) as CfnTemplate;
    await stageAssets(stack.assetsPath, outdir);

    const forMotoTemplate = forMoto(original, BOOTSTRAP_VERSION);
    changes = forMotoTemplate.changes;
    stackName = uniqueName(stack.stackName);
    await cloudformation.send(
      new CreateStackCommand({
        StackName: stackName,
        // AWS takes 51,200 bytes here and a larger template by TemplateURL (CDK uploads it); moto takes either.
        TemplateBody: JSON.stringify(forMotoTemplate.template),
        Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM'],
      }),
    );
    const { Stacks } = await cloudformation.send(new DescribeStacksCommand({ StackName: stackName }));
    stackStatus = Stacks?.[0]?.StackStatus;
    listed = new Map();
    for await (const page of paginateListStackResources(
      { client: cloudformation },
      { StackName: stackName },
    )) {
      for (const summary of page.StackResourceSummaries ?? []) {
        if (summary.LogicalResourceId) listed.set(summary.LogicalResourceId, summary);
      }
    }
  }, SYNTH_TIMEOUT_MS);

  afterAll(async () => {
    if (stackName) await cloudformation.send(new DeleteStackCommand({ StackName: stackName }));
    if (workdir) await rm(workdir, { recursive: true, force: true });
    cloudformation.destroy();
    s3.destroy();
  });

  /** The template's resources by type, each with whether moto created it (listed with its type). */
  const report = (): TypeReport[] => {
    const byType = new Map<string, string[]>();
    for (const [id, resource] of Object.entries(original.Resources)) {
      byType.set(resource.Type, [...(byType.get(resource.Type) ?? []), id]);
    }
    return [...byType.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, ids]) => {
        // Listed with its type: moto lists a type it skips with none (and gives permissions no physical id).
        const created = ids.filter((id) => listed.get(id)?.ResourceType === type);
        const outcome =
          type in MOTO_REMOVED_TYPES
            ? `removed: ${MOTO_REMOVED_TYPES[type]}`
            : type in MOTO_UNSUPPORTED_TYPES
              ? `not supported: ${MOTO_UNSUPPORTED_TYPES[type]}`
              : checkedInService.has(type)
                ? 'created, and found in its service'
                : 'created';
        return { type, inTemplate: ids.length, created: created.length, outcome };
      });
  };

  it('creates every resource of every type moto supports, and prints the table per type', () => {
    // Act
    const rows = report();
    console.log(
      [
        `moto: stack ${stackName} ${stackStatus}`,
        ...changes.map((change) => `  changed for moto: ${change}`),
        '| type | in template | created | outcome |',
        '|---|---|---|---|',
        ...rows.map((row) => `| \`${row.type}\` | ${row.inTemplate} | ${row.created} | ${row.outcome} |`),
      ].join('\n'),
    );

    // Assess
    expect(stackStatus).toBe('CREATE_COMPLETE');
    const supported = rows.filter(
      (row) => !(row.type in MOTO_UNSUPPORTED_TYPES) && !(row.type in MOTO_REMOVED_TYPES),
    );
    expect(supported.filter((row) => row.created !== row.inTemplate)).toEqual([]);
    expect(supported.length).toBeGreaterThan(0);
    // A type listed as unsupported that moto now creates: update MOTO_UNSUPPORTED_TYPES and docs/deploy.md.
    expect(rows.filter((row) => row.type in MOTO_UNSUPPORTED_TYPES && row.created > 0)).toEqual([]);
  });

  it('the tables, queues, buckets and key CloudFormation lists exist in their own services, as the template says', async () => {
    // Prepare
    const ofType = (type: string) =>
      Object.entries(original.Resources)
        .filter(([, resource]) => resource.Type === type)
        .map(([id, resource]) => ({ id, resource, physical: listed.get(id)?.PhysicalResourceId ?? '' }));
    const dynamodb = new DynamoDBClient(config);
    const sqs = new SQSClient(config);
    const kms = new KMSClient(config);

    // Act + Assess
    try {
      for (const { resource, physical } of ofType('AWS::DynamoDB::Table')) {
        const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: physical }));
        expect(Table?.KeySchema).toEqual(resource.Properties?.KeySchema);
        expect(Table?.StreamSpecification?.StreamViewType).toBe(
          (resource.Properties?.StreamSpecification as { StreamViewType?: string } | undefined)
            ?.StreamViewType,
        );
      }
      for (const { resource, physical } of ofType('AWS::SQS::Queue')) {
        const { Attributes } = await sqs.send(
          new GetQueueAttributesCommand({ QueueUrl: physical, AttributeNames: ['All'] }),
        );
        const wanted = resource.Properties?.VisibilityTimeout;
        if (wanted !== undefined) expect(Attributes?.VisibilityTimeout).toBe(String(wanted));
        if (resource.Properties?.RedrivePolicy)
          expect(Attributes?.RedrivePolicy).toContain('maxReceiveCount');
      }
      for (const { physical } of ofType('AWS::S3::Bucket')) {
        await expect(s3.send(new HeadBucketCommand({ Bucket: physical }))).resolves.toBeDefined();
      }
      // Through our cipher, as the functions use it. (moto's DescribeKey answers 500 for a key made by
      // CloudFormation: it keeps the KeyPolicy as an object and then parses it as a string.)
      for (const { resource, physical } of ofType('AWS::KMS::Key')) {
        const cipher = makeKmsSecretCipher(kms, physical);
        const context = {
          tenantId: 'ten_s',
          workspaceId: 'wks_s',
          purpose: 'oauth-token',
          recordId: 'acc_s',
        } as const;
        await expect(cipher.decrypt(await cipher.encrypt('token', context), context)).resolves.toBe('token');
        const { KeyRotationEnabled } = await kms.send(new GetKeyRotationStatusCommand({ KeyId: physical }));
        expect(KeyRotationEnabled).toBe(resource.Properties?.EnableKeyRotation === true);
      }
    } finally {
      dynamodb.destroy();
      sqs.destroy();
      kms.destroy();
    }
  });
});
