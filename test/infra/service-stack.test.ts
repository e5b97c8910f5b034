import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { App, type CfnElement, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DATA_ACTIONS } from '../../infra/constructs/tables.js';
import { acknowledgeNagFindings } from '../../infra/nag-suppressions.js';
import { repoRoot } from '../../infra/paths.js';
import { ServiceStack, tableOutputKey } from '../../infra/stacks/service-stack.js';
import { TABLES, type TableDefinition } from '../../shared/adapters/dynamodb/tables.js';
import { defineOperation, type Operation } from '../../shared/http/operation.js';
import { operations } from '../../shared/operations/registry.js';

type Json = Record<string, unknown>;
interface CfnResource {
  Type: string;
  Properties: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}
interface PolicyStatement {
  Action: string | string[];
  Resource: unknown;
  Effect: string;
}

const STACK_ID = 'SocialPublishing-test';

/**
 * The stack as `infra/app.ts` builds it, with its cdk-nag acknowledgements. The nag plugin itself is
 * run by the tests below (so a finding fails one named test, not the whole file) and, as registered by
 * the app, by the `infra/app.ts` test at the end.
 */
function buildStack(
  options: { operations?: readonly Operation[]; acknowledge?: boolean; bundle?: boolean } = {},
): ServiceStack {
  // `aws:cdk:bundling-stacks: []` is CDK's own switch (used by `cdk synth --exclusively`) to skip bundling.
  const app = new App(options.bundle === false ? { context: { 'aws:cdk:bundling-stacks': [] } } : {});
  const stack = new ServiceStack(app, STACK_ID, { stage: 'test', operations: options.operations });
  if (options.acknowledge !== false) acknowledgeNagFindings(stack);
  return stack;
}

const logicalId = (construct: IConstruct): string => {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return Stack.of(construct).getLogicalId(element);
};

const actionsOf = (statement: PolicyStatement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];
const resourcesOf = (statement: PolicyStatement): unknown[] =>
  Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];

describe('ServiceStack', () => {
  let stack: ServiceStack;
  let template: Template;
  let resources: Record<string, CfnResource>;

  beforeAll(() => {
    stack = buildStack();
    template = Template.fromStack(stack);
    resources = template.toJSON().Resources as Record<string, CfnResource>;
  });

  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

  /** A resource of the template, which must exist and have the given type. */
  function resourceOf(id: string | undefined, type: string): CfnResource {
    const resource = resources[id ?? ''];
    if (resource?.Type !== type) throw new Error(`Expected ${id} to be a ${type}, found ${resource?.Type}.`);
    return resource;
  }

  /** Route → integration → function, by following the template's references. */
  function functionBehindRoute(routeKey: string): { id: string; resource: CfnResource } {
    const routes = ofType('AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.RouteKey === routeKey);
    expect(routes, `routes with RouteKey "${routeKey}"`).toHaveLength(1);
    const [, route] = routes[0] as [string, CfnResource];
    const integrationId = /"Ref":"([A-Za-z0-9]+)"/.exec(JSON.stringify(route.Properties.Target))?.[1];
    const integration = resourceOf(integrationId, 'AWS::ApiGatewayV2::Integration');
    expect(integration.Properties.IntegrationType).toBe('AWS_PROXY');
    expect(integration.Properties.PayloadFormatVersion).toBe('2.0');
    const uri = integration.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] };
    const functionId = uri['Fn::GetAtt'][0];
    return { id: functionId, resource: resourceOf(functionId, 'AWS::Lambda::Function') };
  }

  /** Every statement of every policy attached to the function's role. */
  function statementsOf(fn: CfnResource): PolicyStatement[] {
    const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    expect(resources[roleId]?.Properties.ManagedPolicyArns).toBeUndefined();
    return ofType('AWS::IAM::Policy')
      .filter(([, policy]) =>
        (policy.Properties.Roles as unknown[]).some((r) => JSON.stringify(r).includes(roleId)),
      )
      .flatMap(
        ([, policy]) => (policy.Properties.PolicyDocument as { Statement: PolicyStatement[] }).Statement,
      );
  }

  const tableId = (definition: TableDefinition): string => {
    const entry = stack.data.tables.find((t) => t.definition === definition);
    if (!entry) throw new Error(`no table for ${definition.id}`);
    return logicalId(entry.table);
  };

  describe('routes', () => {
    it.each(operations.map((operation) => [operation.id, operation] as const))(
      '%s: one route METHOD path to its own function, which knows its operation and the tables',
      (_id, operation) => {
        // Act
        const fn = functionBehindRoute(`${operation.method} ${operation.path}`);

        // Assess
        const variables = (fn.resource.Properties.Environment as { Variables: Json }).Variables;
        expect(variables.OPERATION_ID).toBe(operation.id);
        for (const definition of TABLES) {
          expect(variables[definition.envVar]).toEqual({ Ref: tableId(definition) });
        }
        expect(fn.id).toBe(logicalId(stack.api.operationFunctions.get(operation.id)?.function as IConstruct));
      },
    );

    it('sends everything else to the fallback function through the $default route', () => {
      // Act
      const fn = functionBehindRoute('$default');

      // Assess
      expect(fn.id).toBe(logicalId(stack.api.fallbackFunction.function));
      const variables = (fn.resource.Properties.Environment as { Variables: Json }).Variables;
      expect(variables.OPERATION_ID).toBeUndefined();
    });

    it('has no route that is neither an operation nor $default', () => {
      // Act
      const routeKeys = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);

      // Assess
      expect(routeKeys.sort()).toEqual(
        [...operations.map((o) => `${o.method} ${o.path}`), '$default'].sort(),
      );
    });

    it('adding an operation to the list adds its function and route, with no infra edit', () => {
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
        successStatus: 200,
        schemas: { params: z.object({ thing_id: z.string() }), query: z.object({}), response: z.object({}) },
        async handler() {
          return {};
        },
      }) as Operation;

      // Act
      const extended = Template.fromStack(buildStack({ operations: [...operations, extra], bundle: false }));

      // Assess
      extended.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'POST /v1/ping/{thing_id}' });
      extended.hasResourceProperties('AWS::Lambda::Function', {
        Environment: { Variables: { OPERATION_ID: 'pingExtra' } },
      });
    });
  });

  describe('tables', () => {
    it.each(TABLES.map((definition) => [definition.id, definition] as const))(
      '%s matches its shared definition',
      (_id, definition) => {
        // Act
        const table = resources[tableId(definition)] as CfnResource;

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
      const tableIds = ofType('AWS::DynamoDB::Table').map(([id]) => id);

      // Assess
      expect(tableIds.sort()).toEqual(TABLES.map(tableId).sort());
      for (const { table } of stack.data.tables) {
        expect(table.node.path.startsWith(`${STACK_ID}/Data/`)).toBe(true);
      }
    });
  });

  describe('outputs', () => {
    it("are exactly each table's name and ApiUrl (the admin CLI reads them)", () => {
      // Act
      const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;

      // Assess
      expect(Object.keys(outputs).sort()).toEqual(['ApiUrl', ...TABLES.map(tableOutputKey)].sort());
      for (const definition of TABLES) {
        expect(outputs[tableOutputKey(definition)]?.Value).toEqual({ Ref: tableId(definition) });
      }
      expect(outputs.ApiUrl?.Value).toEqual({
        'Fn::GetAtt': [logicalId(stack.api.httpApi), 'ApiEndpoint'],
      });
    });
  });

  describe('permissions', () => {
    const dynamodbStatements = (fn: CfnResource) =>
      statementsOf(fn).filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));

    it.each(operations.filter((o) => o.auth !== 'none').map((o) => [o.id, o] as const))(
      '%s may read and write items of the named tables and indexes only',
      (_id, operation) => {
        // Act
        const statements = dynamodbStatements(
          functionBehindRoute(`${operation.method} ${operation.path}`).resource,
        );

        // Assess
        const expected = TABLES.flatMap((definition) => {
          const arn = { 'Fn::GetAtt': [tableId(definition), 'Arn'] };
          return [
            arn,
            ...definition.globalSecondaryIndexes.map((index) => ({
              'Fn::Join': ['', [arn, `/index/${index.indexName}`]],
            })),
          ];
        });
        expect(statements).toEqual([{ Effect: 'Allow', Action: [...DATA_ACTIONS], Resource: expected }]);
        for (const statement of statements) {
          expect(JSON.stringify(resourcesOf(statement))).not.toContain('*');
          expect(actionsOf(statement).filter((a) => a.includes('*'))).toEqual([]);
        }
      },
    );

    it('no statement of any operation function grants dynamodb on Resource "*"', () => {
      for (const operation of operations) {
        // Act
        const statements = statementsOf(
          functionBehindRoute(`${operation.method} ${operation.path}`).resource,
        );

        // Assess
        const wildcard = statements.filter(
          (s) =>
            resourcesOf(s).includes('*') && actionsOf(s).some((a) => a.startsWith('dynamodb:') || a === '*'),
        );
        expect(wildcard, operation.id).toEqual([]);
      }
    });

    it('operations without an API key (the OpenAPI document) and the fallback get no DynamoDB access', () => {
      // Prepare
      const publicOperations = operations.filter((o) => o.auth === 'none');
      expect(publicOperations.map((o) => o.id)).toContain('getOpenApi');

      // Act
      const functions = [
        ...publicOperations.map((o) => functionBehindRoute(`${o.method} ${o.path}`).resource),
        functionBehindRoute('$default').resource,
      ];

      // Assess
      for (const fn of functions) {
        expect(dynamodbStatements(fn)).toEqual([]);
        // Only its own log group and X-Ray.
        expect(statementsOf(fn).flatMap(actionsOf).sort()).toEqual(
          [
            'logs:CreateLogStream',
            'logs:PutLogEvents',
            'xray:PutTelemetryRecords',
            'xray:PutTraceSegments',
          ].sort(),
        );
      }
    });
  });

  describe('functions', () => {
    it('every function runs nodejs22.x on arm64 with tracing, source maps and its own retained-for-a-month log group', () => {
      // Act
      const functions = ofType('AWS::Lambda::Function');

      // Assess
      expect(functions).toHaveLength(operations.length + 1);
      for (const [id, fn] of functions) {
        expect(fn.Properties.Runtime, id).toBe('nodejs22.x');
        expect(fn.Properties.Architectures, id).toEqual(['arm64']);
        expect(fn.Properties.Handler, id).toBe('index.handler');
        expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
        const variables = (fn.Properties.Environment as { Variables: Json }).Variables;
        expect(variables.NODE_OPTIONS, id).toBe('--enable-source-maps');
        const logGroupId = (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
        expect(resources[logGroupId]?.Properties.RetentionInDays, id).toBe(30);
      }
    });

    it('are bundled for real: the assets hold an ESM bundle with its source map', async () => {
      // Prepare
      const fn = ofType('AWS::Lambda::Function')[0]?.[1] as CfnResource;
      const assetHash = (fn.Properties.Code as { S3Key: string }).S3Key.replace(/\.zip$/, '');
      const outdir = (stack.node.root as App).outdir;

      // Act
      const bundle = await readFile(join(outdir, `asset.${assetHash}`, 'index.mjs'), 'utf8');

      // Assess
      expect(bundle.startsWith("import { createRequire } from 'module';")).toBe(true);
      expect(bundle).toMatch(/sourceMappingURL=index\.mjs\.map/);
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
        expect(ack.reason.length, `${ack.path} ${ack.id}`).toBeGreaterThanOrEqual(60);
      }
      expect(stale.map((ack) => `${ack.path} ${ack.id}`)).toEqual([]);
    });
  });
});

describe('infra/app.ts', () => {
  it('synthesizes offline with no AWS credentials, named by the stage context, with nag passing', async () => {
    // Prepare
    const outdir = await mkdtemp(join(tmpdir(), 'cdk-out-'));
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')));

    try {
      // Act
      await promisify(execFile)(join(repoRoot, 'node_modules/.bin/tsx'), ['infra/app.ts'], {
        cwd: repoRoot,
        env: { ...env, CDK_OUTDIR: outdir, CDK_CONTEXT_JSON: JSON.stringify({ stage: 'ci' }) },
      });

      // Assess
      const template = JSON.parse(await readFile(join(outdir, 'SocialPublishing-ci.template.json'), 'utf8'));
      expect(Object.keys(template.Outputs).sort()).toEqual(['ApiUrl', ...TABLES.map(tableOutputKey)].sort());
      const report = JSON.parse(await readFile(join(outdir, 'validation-report.json'), 'utf8'));
      expect(report.pluginReports.filter((r: { conclusion: string }) => r.conclusion !== 'success')).toEqual(
        [],
      );
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});
