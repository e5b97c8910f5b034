import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appIdPart } from '../../infra/constructs/network-apps.js';
import type { ServiceFunction } from '../../infra/constructs/service-function.js';
import { repoRoot } from '../../infra/paths.js';
import { type ServiceStack, tableOutputKey } from '../../infra/stacks/service-stack.js';
import { MAIN_TABLE, TABLES, type TableDefinition } from '../../shared/adapters/dynamodb/tables.js';
import { defineOperation, type Operation } from '../../shared/http/operation.js';
import { isTool } from '../../shared/mcp/tool-catalog.js';
import { APP_IDS } from '../../shared/networks/definitions.js';
import { operations } from '../../shared/operations/registry.js';
import { readSplitAsset } from './split-asset.js';
import {
  buildStack,
  type CfnResource,
  getAtt,
  type Json,
  logicalId,
  ref,
  STACK_ID,
  SynthesizedStack,
} from './stack-fixture.js';
import { SYNTH_TIMEOUT_MS } from './synth-timeout.js';

/** Every output the stack has, by key (the admin CLI reads the table names and ApiUrl). */
const OUTPUT_KEYS = [
  ...TABLES.map(tableOutputKey),
  'ApiUrl',
  'McpUrl',
  'McpFunctionUrl',
  'DashboardUrl',
  'MediaBucketName',
  'DeliveryQueueUrl',
  'EventsQueueUrl',
  'ScheduleGroupName',
  'KmsKeyArn',
  // One secret's name per network app, from the registry (XAppSecretName, LinkedinCommunityAppSecretName, …).
  ...APP_IDS.map((app) => `${appIdPart(app)}AppSecretName`),
  'OAuthCallbackUrl',
  'AlarmTopicArn',
].sort();

describe('ServiceStack', { timeout: SYNTH_TIMEOUT_MS }, () => {
  let stack: ServiceStack;
  let synth: SynthesizedStack;

  beforeAll(() => {
    // Bundled for real, once: the bundle test below reads the assets.
    stack = buildStack();
    synth = new SynthesizedStack(stack);
  }, 240_000); // esbuild once per function (about 50): over a minute on two busy cores

  const tableId = (definition: TableDefinition): string => logicalId(stack.data.tableOf(definition));

  describe('routes', () => {
    it.each(operations.map((operation) => [operation.id, operation] as const))(
      '%s: one route METHOD path to its own function, which knows its operation, the tables and the bucket',
      (_id, operation) => {
        // Act
        const fn = synth.functionBehindRoute(`${operation.method} ${operation.path}`);

        // Assess
        const variables = synth.environmentOf(fn.resource);
        expect(variables.OPERATION_ID).toBe(operation.id);
        for (const definition of TABLES) {
          expect(variables[definition.envVar]).toEqual({ Ref: tableId(definition) });
        }
        expect(variables.MEDIA_BUCKET).toEqual(ref(stack.media.bucket));
        expect(fn.id).toBe(logicalId(stack.api.operationFunctions.get(operation.id)?.function as IConstruct));
      },
    );

    it('sends everything else to the fallback function through the $default route', () => {
      // Act
      const fn = synth.functionBehindRoute('$default');

      // Assess
      expect(fn.id).toBe(logicalId(stack.api.fallbackFunction.function));
      expect(synth.environmentOf(fn.resource).OPERATION_ID).toBeUndefined();
    });

    it('has no route that is neither an operation, ANY /mcp, the dashboard’s two nor $default', () => {
      // Act
      const routeKeys = synth.ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);

      // Assess
      expect(routeKeys.sort()).toEqual(
        [
          ...operations.map((o) => `${o.method} ${o.path}`),
          'ANY /mcp',
          'ANY /dashboard',
          'ANY /dashboard/{proxy+}',
          '$default',
        ].sort(),
      );
    });

    it('adding an operation to the list adds its function, route and grants, with no infra edit', () => {
      // Prepare
      const extra = defineOperation({
        id: 'pingExtra',
        method: 'POST',
        path: '/v1/ping/{thing_id}',
        summary: 'Test-only operation',
        description: 'Test-only operation',
        tag: 'Test',
        auth: 'apiKey',
        rateLimitFamily: 'other',
        workspace: 'none',
        resources: ['media-read'],
        successStatus: 200,
        schemas: { params: z.object({ thing_id: z.string() }), query: z.object({}), response: z.object({}) },
        async handler() {
          return {};
        },
      }) as Operation;

      // Act
      const extended = new SynthesizedStack(
        buildStack({ operations: [...operations, extra], bundle: false }),
      );

      // Assess
      const fn = extended.functionBehindRoute('POST /v1/ping/{thing_id}');
      expect(extended.environmentOf(fn.resource).OPERATION_ID).toBe('pingExtra');
      const s3 = extended.statementsOf(fn.resource).filter((s) => JSON.stringify(s.Action).includes('s3:'));
      expect(s3.map((s) => s.Action)).toEqual(['s3:GetObject']);
      expect(new AwsSolutionsChecks().validateScope(extended.stack).violations).toEqual([]);
    });

    it('has no custom domain unless one is configured', () => {
      expect(synth.ofType('AWS::ApiGatewayV2::DomainName')).toEqual([]);
      expect(synth.ofType('AWS::ApiGatewayV2::ApiMapping')).toEqual([]);
    });

    it('maps a configured custom domain (domainName + certificateArn) to the API stage', () => {
      // Prepare
      const certificateArn = 'arn:aws:acm:eu-west-1:123456789012:certificate/abc-123';

      // Act
      const withDomain = new SynthesizedStack(
        buildStack({
          bundle: false,
          props: { customDomain: { domainName: 'api.example.com', certificateArn } },
        }),
      );

      // Assess
      const [[domainId, domain]] = withDomain.ofType('AWS::ApiGatewayV2::DomainName') as [
        [string, CfnResource],
      ];
      expect(domain.Properties).toEqual({
        DomainName: 'api.example.com',
        DomainNameConfigurations: [
          { CertificateArn: certificateArn, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' },
        ],
        Tags: { Service: 'social-publishing', Stage: 'test' },
      });
      const [[, mapping]] = withDomain.ofType('AWS::ApiGatewayV2::ApiMapping') as [[string, CfnResource]];
      // The $default stage is named literally, so the mapping waits for the stage to exist.
      expect(mapping.Properties).toEqual({
        ApiId: ref(withDomain.stack.api.httpApi),
        DomainName: { Ref: domainId },
        Stage: '$default',
      });
      expect(mapping.DependsOn).toEqual([logicalId(withDomain.stack.api.stage)]);
      expect(withDomain.outputs.CustomDomainTarget?.Value).toEqual({
        'Fn::GetAtt': [domainId, 'RegionalDomainName'],
      });
      expect(new AwsSolutionsChecks().validateScope(withDomain.stack).violations).toEqual([]);
    });
  });

  describe('tables', () => {
    it('are derived from every shared definition, including gsi2, gsi3 and the idempotency table', () => {
      // The it.each below walks TABLES; this pins that the new pieces are in it.
      expect(TABLES.map((definition) => definition.id)).toEqual(
        expect.arrayContaining(['main', 'rate-limits', 'idempotency']),
      );
      expect(MAIN_TABLE.globalSecondaryIndexes.map((index) => index.indexName)).toEqual([
        'gsi1',
        'gsi2',
        'gsi3',
      ]);
    });

    it.each(TABLES.map((definition) => [definition.id, definition] as const))(
      '%s matches its shared definition',
      (_id, definition) => {
        // Act
        const table = synth.resources[tableId(definition)] as CfnResource;

        // Assess
        const keySchema = (pk: { name: string }, sk?: { name: string }) => [
          { AttributeName: pk.name, KeyType: 'HASH' },
          ...(sk ? [{ AttributeName: sk.name, KeyType: 'RANGE' }] : []),
        ];
        expect(table.Type).toBe('AWS::DynamoDB::Table');
        expect(table.Properties.KeySchema).toEqual(keySchema(definition.partitionKey, definition.sortKey));
        const keyAttributes = [
          definition.partitionKey,
          ...(definition.sortKey ? [definition.sortKey] : []),
          ...definition.globalSecondaryIndexes.flatMap((i) => [
            i.partitionKey,
            ...(i.sortKey ? [i.sortKey] : []),
          ]),
        ];
        expect(table.Properties.AttributeDefinitions).toEqual(
          expect.arrayContaining(
            keyAttributes.map((a) => ({ AttributeName: a.name, AttributeType: a.type })),
          ),
        );
        expect(table.Properties.AttributeDefinitions).toHaveLength(
          new Set(keyAttributes.map((a) => a.name)).size,
        );
        expect(table.Properties.GlobalSecondaryIndexes ?? []).toEqual(
          definition.globalSecondaryIndexes.map((index) => ({
            IndexName: index.indexName,
            KeySchema: keySchema(index.partitionKey, index.sortKey),
            Projection: { ProjectionType: 'ALL' },
          })),
        );
        expect(table.Properties.StreamSpecification).toEqual(
          definition.stream ? { StreamViewType: definition.stream } : undefined,
        );
        expect(table.Properties.TimeToLiveSpecification).toEqual(
          definition.timeToLiveAttribute
            ? { AttributeName: definition.timeToLiveAttribute, Enabled: true }
            : undefined,
        );
        expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
        expect(table.Properties.PointInTimeRecoverySpecification).toEqual({
          PointInTimeRecoveryEnabled: true,
        });
        expect(table.Properties.DeletionProtectionEnabled).toBe(true);
        expect(table.Properties.TableName).toBeUndefined(); // generated: stages never collide
        expect(table.DeletionPolicy).toBe('Retain');
        expect(table.UpdateReplacePolicy).toBe('Retain');
      },
    );

    it('are the only tables, and live apart from the functions (the Data construct)', () => {
      // Act
      const tableIds = synth.ofType('AWS::DynamoDB::Table').map(([id]) => id);

      // Assess
      expect(tableIds.sort()).toEqual(TABLES.map(tableId).sort());
      for (const { table } of stack.data.tables) {
        expect(table.node.path.startsWith(`${STACK_ID}/Data/`)).toBe(true);
      }
    });
  });

  describe('outputs', () => {
    it('are each table name, ApiUrl, and where the bucket, queues, schedules, key, app secrets and alarms are', () => {
      // Act
      const { outputs } = synth;

      // Assess
      expect(Object.keys(outputs).sort()).toEqual(OUTPUT_KEYS);
      for (const definition of TABLES) {
        expect(outputs[tableOutputKey(definition)]?.Value).toEqual({ Ref: tableId(definition) });
      }
      expect(outputs.ApiUrl?.Value).toEqual(getAtt(stack.api.httpApi, 'ApiEndpoint'));
      expect(outputs.MediaBucketName?.Value).toEqual(ref(stack.media.bucket));
      expect(outputs.DeliveryQueueUrl?.Value).toEqual(ref(stack.queues.delivery.queue));
      expect(outputs.EventsQueueUrl?.Value).toEqual(ref(stack.queues.events.queue));
      expect(outputs.ScheduleGroupName?.Value).toEqual(ref(stack.scheduling.group));
      expect(outputs.KmsKeyArn?.Value).toEqual(getAtt(stack.secretsKey.key, 'Arn'));
      expect(outputs.AlarmTopicArn?.Value).toEqual(ref(stack.alarms.topic));
      expect(outputs.LinkedinAppSecretName?.Value).toBe('social-publishing/test/networks/linkedin');
      expect(outputs.LinkedinCommunityAppSecretName?.Value).toBe(
        'social-publishing/test/networks/linkedin-community',
      );
      expect(outputs.OAuthCallbackUrl?.Value).toEqual({
        'Fn::Join': ['', [getAtt(stack.api.httpApi, 'ApiEndpoint'), '/v1/oauth/{platform}/callback']],
      });
    });
  });

  describe('functions', () => {
    it('every function of the service runs nodejs22.x on arm64 with tracing, no eager source maps, Powertools settings and its own log group kept a month', () => {
      // Act
      const functions = stack.functions.map((fn) => [fn.node.path, synth.functionOf(fn)] as const);

      // Assess
      // The operations, the fallback, the MCP server, the dashboard, and eight workers.
      expect(functions).toHaveLength(operations.length + 1 + 1 + 1 + 8);
      for (const [path, fn] of functions) {
        expect(fn.Properties.Runtime, path).toBe('nodejs22.x');
        expect(fn.Properties.Architectures, path).toEqual(['arm64']);
        expect(fn.Properties.Handler, path).toBe('index.handler');
        expect(fn.Properties.TracingConfig, path).toEqual({ Mode: 'Active' });
        // Maps are read on the first error (shared/runtime/lazy-source-maps.ts), not at every start.
        expect(synth.environmentOf(fn).NODE_OPTIONS, path).toBeUndefined();
        expect(synth.environmentOf(fn), path).toMatchObject({
          POWERTOOLS_SERVICE_NAME: 'social-publishing-api',
          POWERTOOLS_METRICS_NAMESPACE: 'SocialPublishing',
          POWERTOOLS_LOG_LEVEL: 'INFO',
        });
        const logGroupId = (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
        expect(synth.resources[logGroupId]?.Properties.RetentionInDays, path).toBe(30);
      }
    });

    it("the only other function is CDK's own, which writes the bucket's notification configuration", () => {
      // Act
      const ours = new Set(stack.functions.map((fn) => logicalId(fn.function)));
      const others = synth.ofType('AWS::Lambda::Function').filter(([id]) => !ours.has(id));

      // Assess
      expect(others.map(([id]) => id)).toEqual([expect.stringMatching(/^BucketNotificationsHandler/)]);
      const [[, handler]] = others as [[string, CfnResource]];
      const roleId = (handler.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      expect(synth.statementsOfRole(roleId)).toEqual([
        { Action: 's3:PutBucketNotification', Effect: 'Allow', Resource: getAtt(stack.media.bucket, 'Arn') },
      ]);
    });

    it('are bundled for real: the assets hold an ESM bundle with its source map', async () => {
      // Prepare
      const outdir = (stack.node.root as App).outdir;
      const bundles = [
        stack.api.fallbackFunction,
        stack.mcp.server,
        stack.dashboard.server,
        ...stack.workers.functions,
      ].map((fn) => {
        const code = synth.functionOf(fn).Properties.Code as { S3Key: string };
        return join(outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`, 'index.mjs');
      });

      // Act
      const contents = await Promise.all(bundles.map((file) => readFile(file, 'utf8')));

      // Assess
      expect(new Set(bundles).size).toBe(bundles.length); // one bundle per entry
      for (const bundle of contents) {
        expect(bundle.startsWith("import { createRequire } from 'module';")).toBe(true);
        expect(bundle).toMatch(/sourceMappingURL=index\.mjs\.map/);
      }
    });

    it("each operation's bundle holds its own operation and only the adapters its resources need", async () => {
      // Prepare
      const outdir = (stack.node.root as App).outdir;
      const sourcesOf = async (operationId: string) => {
        const fn = stack.api.operationFunctions.get(operationId) as ServiceFunction;
        const code = synth.functionOf(fn).Properties.Code as { S3Key: string };
        const map = join(outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`, 'index.mjs.map');
        return (JSON.parse(await readFile(map, 'utf8')) as { sources: string[] }).sources;
      };

      // Act
      const getPost = await sourcesOf('getPost');
      const upload = await sourcesOf('createUploadUrl');

      // Assess
      const has = (sources: string[], path: string) => sources.some((source) => source.includes(path));
      expect(has(getPost, 'shared/operations/posts/get-post.ts')).toBe(true);
      expect(has(getPost, 'shared/operations/posts/create-post.ts')).toBe(false);
      expect(has(getPost, 'shared/operations/registry.ts')).toBe(false);
      expect(has(getPost, 'node_modules/@aws-sdk/client-s3/')).toBe(false);
      expect(has(getPost, 'node_modules/@aws-sdk/client-kms/')).toBe(false);
      // zod's own English messages only, not its every locale (as `import { z }` used to bring).
      expect(getPost.filter((source) => source.includes('node_modules/zod/v4/locales/'))).toEqual([
        expect.stringMatching(/locales\/en\.js$/),
      ]);
      expect(has(upload, 'node_modules/@aws-sdk/client-s3/')).toBe(true);
      expect(has(upload, 'node_modules/@aws-sdk/client-kms/')).toBe(false);
      // Every entry: the stack mapper first, the environment's credentials instead of the SDK's chain.
      for (const sources of [getPost, upload]) {
        expect(has(sources, 'shared/runtime/lazy-source-maps.ts')).toBe(true);
        expect(has(sources, 'shared/runtime/lambda-credentials.ts')).toBe(true);
        expect(has(sources, 'node_modules/@aws-sdk/credential-provider-node/')).toBe(false);
        expect(has(sources, 'node_modules/@aws-sdk/nested-clients/')).toBe(false);
      }
    });

    it('the MCP function is split: its generated entry answers from the catalog, each tool is a chunk of its own', async () => {
      // Prepare
      const outdir = (stack.node.root as App).outdir;
      const code = synth.functionOf(stack.mcp.server).Properties.Code as { S3Key: string };
      const dir = join(outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);

      // Act
      const { files, coldFiles, sourcesOf } = await readSplitAsset(dir);
      const entrySources = await sourcesOf(['index.mjs']);
      const coldSources = await sourcesOf(coldFiles);
      const chunkSources = new Map(
        await Promise.all(
          files
            .filter((file) => file.startsWith('chunks/'))
            .map(async (file) => [file, await sourcesOf([file])] as const),
        ),
      );

      // Assess
      const has = (sources: string[], path: string) => sources.some((source) => source.includes(path));
      // Built from the generated entry (infra/mcp-entry.ts), with the stack mapper first.
      expect(
        entrySources.filter((source) => /operation-entries\/mcp\/index-[0-9a-f]{12}\.ts$/.test(source)),
      ).toHaveLength(1);
      expect(has(entrySources, 'shared/runtime/lazy-source-maps.ts')).toBe(true);
      expect(entrySources.filter((source) => source.endsWith('functions/operation.ts'))).toEqual([]);
      // initialize and tools/list load no registry, zod, MCP SDK or DynamoDB client.
      for (const heavy of [
        'shared/operations/registry.ts',
        'node_modules/zod/',
        'node_modules/@modelcontextprotocol/sdk/',
        'node_modules/@aws-sdk/client-dynamodb/',
      ])
        expect(has(coldSources, heavy), heavy).toBe(false);
      // Each tool's module is in one chunk, and not loaded at cold start.
      for (const tool of operations.filter(isTool)) {
        const holding = [...chunkSources].filter(([, sources]) =>
          sources.some((source) => source.endsWith(`operation-entries/mcp/tools/${tool.id}.ts`)),
        );
        expect(
          holding.map(([file]) => coldFiles.has(file)),
          tool.id,
        ).toEqual([false]);
      }
      // Every chunk as every bundle: the banner first, its source map beside it.
      for (const file of files) {
        const text = await readFile(join(dir, file), 'utf8');
        expect(text.startsWith("import { createRequire } from 'module';"), file).toBe(true);
        expect(text.trimEnd().split('\n').at(-1), file).toBe(
          `//# sourceMappingURL=${posix.basename(file)}.map`,
        );
      }
    });

    it('the dashboard function is split: its cold start answers the sign-in page, each group of pages is a chunk of its own', async () => {
      // Prepare
      const outdir = (stack.node.root as App).outdir;
      const code = synth.functionOf(stack.dashboard.server).Properties.Code as { S3Key: string };
      const dir = join(outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
      const asset = await readSplitAsset(dir);

      // Act
      const entrySources = await asset.sourcesOf(['index.mjs']);
      const coldSources = await asset.sourcesOf(asset.coldFiles);
      const chunkSources = new Map(
        await Promise.all(
          asset.files
            .filter((file) => file.startsWith('chunks/'))
            .map(async (file) => [file, await asset.sourcesOf([file])] as const),
        ),
      );

      // Assess
      const has = (sources: string[], path: string) => sources.some((source) => source.includes(path));
      // Built from functions/dashboard.ts, with the stack mapper first.
      expect(entrySources.filter((source) => source.endsWith('functions/dashboard.ts'))).toHaveLength(1);
      expect(has(entrySources, 'shared/runtime/lazy-source-maps.ts')).toBe(true);
      expect(entrySources.filter((source) => source.includes('operation-entries/mcp/'))).toEqual([]);
      // The sign-in page loads no operation, zod, AWS client, configuration of the networks or page behind sign-in.
      for (const heavy of [
        'shared/operations/registry.ts',
        'shared/dashboard/call-operation.ts',
        'node_modules/zod/',
        'node_modules/@aws-sdk/client-dynamodb/',
        'node_modules/@smithy/core/',
        'shared/networks/definitions.ts',
        'shared/runtime/dashboard-deps-from-env.ts',
      ])
        expect(has(coldSources, heavy), heavy).toBe(false);
      expect(has(coldSources, 'shared/dashboard/routes/auth.ts')).toBe(true);
      // Each route module behind sign-in is in one chunk, not loaded at cold start.
      for (const module of [
        'users',
        'workspaces',
        'agents',
        'policies',
        'accounts',
        'compose',
        'approvals',
        'posts',
        'calendar',
        'webhooks',
      ]) {
        const holding = [...chunkSources].filter(([, sources]) =>
          sources.some((source) => source.endsWith(`shared/dashboard/routes/${module}.ts`)),
        );
        expect(
          holding.map(([file]) => asset.coldFiles.has(file)),
          module,
        ).toEqual([false]);
      }
      // Every chunk as every bundle: the banner first, its source map beside it.
      for (const file of asset.files) {
        const text = await readFile(join(dir, file), 'utf8');
        expect(text.startsWith("import { createRequire } from 'module';"), file).toBe(true);
        expect(text.trimEnd().split('\n').at(-1), file).toBe(
          `//# sourceMappingURL=${posix.basename(file)}.map`,
        );
      }
    });
  });

  describe('cdk-nag (AWS Solutions)', () => {
    it('finds nothing unacknowledged', () => {
      // Act
      const report = new AwsSolutionsChecks().validateScope(stack);

      // Assess
      expect(
        report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath)}`),
      ).toEqual([]);
    });

    it('every acknowledgement has a specific reason, and answers a finding that really occurs there', () => {
      // Prepare
      const acknowledgements = stack.node.findAll().flatMap((construct) =>
        construct.node.metadata
          .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((entry) =>
            Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
              path: construct.node.path,
              id: id.replace(/^annotation::/i, ''),
              reason,
            })),
          ),
      );
      const unacknowledged = new AwsSolutionsChecks().validateScope(
        buildStack({ acknowledge: false, bundle: false }),
      );

      // Act
      const stale = acknowledgements.filter(
        (ack) =>
          !unacknowledged.violations.some(
            (v) =>
              v.ruleName === ack.id &&
              v.violatingResources.some((r) => r.constructPath?.startsWith(`${ack.path}/`)),
          ),
      );

      // Assess
      expect(acknowledgements.length).toBeGreaterThan(0);
      for (const ack of acknowledgements) {
        expect(typeof ack.reason, `${ack.path} ${ack.id}`).toBe('string');
        expect(ack.reason.length, `${ack.path} ${ack.id}`).toBeGreaterThanOrEqual(60);
      }
      expect(stale.map((ack) => `${ack.path} ${ack.id}`)).toEqual([]);
    });

    it('acknowledges a wildcard resource only for the two patterns the service needs, beside X-Ray', () => {
      // Act
      const wildcardIds = new Set(
        stack.node
          .findAll()
          .flatMap((construct) => construct.node.metadata)
          .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((entry) => Object.keys(entry.data as Json).map((id) => id.replace(/^annotation::/i, '')))
          .filter((id) => id.startsWith('AwsSolutions-IAM5')),
      );

      // Assess
      expect([...wildcardIds].sort()).toEqual(
        [
          'AwsSolutions-IAM5[Resource::*]',
          `AwsSolutions-IAM5[Resource::<${logicalId(stack.media.bucket)}.Arn>/t/*]`,
          'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/social-publishing-test/*]',
        ].sort(),
      );
    });
  });
});

describe('infra/app.ts', { timeout: SYNTH_TIMEOUT_MS }, () => {
  it('synthesizes offline with no AWS credentials, named by the stage context, with nag passing', async () => {
    // Prepare
    const outdir = await mkdtemp(join(tmpdir(), 'cdk-out-'));
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')));

    try {
      // Act
      await promisify(execFile)(join(repoRoot, 'node_modules/.bin/tsx'), ['infra/app.ts'], {
        cwd: repoRoot,
        env: {
          ...env,
          CDK_OUTDIR: outdir,
          CDK_CONTEXT_JSON: JSON.stringify({ stage: 'ci', alarmEmail: 'ops@example.com' }),
        },
      });

      // Assess
      const template = JSON.parse(await readFile(join(outdir, 'SocialPublishing-ci.template.json'), 'utf8'));
      expect(Object.keys(template.Outputs).sort()).toEqual(OUTPUT_KEYS);
      const groups = Object.values(template.Resources as Record<string, CfnResource>).filter(
        (r) => r.Type === 'AWS::Scheduler::ScheduleGroup',
      );
      expect(groups.map((g) => g.Properties.Name)).toEqual(['social-publishing-ci']);
      const subscriptions = Object.values(template.Resources as Record<string, CfnResource>).filter(
        (r) => r.Type === 'AWS::SNS::Subscription',
      );
      expect(subscriptions.map((s) => [s.Properties.Protocol, s.Properties.Endpoint])).toEqual([
        ['email', 'ops@example.com'],
      ]);
      const report = JSON.parse(await readFile(join(outdir, 'validation-report.json'), 'utf8'));
      expect(report.pluginReports.filter((r: { conclusion: string }) => r.conclusion !== 'success')).toEqual(
        [],
      );
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  }, 240_000); // a full synth bundles every function (about 50) with esbuild: slow on two busy cores

  it('refuses a context mistake with a sentence, before anything is built', async () => {
    // Prepare
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')));
    const outdir = await mkdtemp(join(tmpdir(), 'cdk-out-'));

    try {
      // Act
      const run = promisify(execFile)(join(repoRoot, 'node_modules/.bin/tsx'), ['infra/app.ts'], {
        cwd: repoRoot,
        env: {
          ...env,
          CDK_OUTDIR: outdir,
          CDK_CONTEXT_JSON: JSON.stringify({ stage: 'ci', domainName: 'api.example.com' }),
        },
      });

      // Assess
      await expect(run).rejects.toThrow(/"domainName" and "certificateArn" go together/);
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});
