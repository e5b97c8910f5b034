import { App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { MCP_PATH, mcpGrants } from '../../infra/constructs/mcp-endpoint.js';
import type { ServiceFunction } from '../../infra/constructs/service-function.js';
import { DATA_ACTIONS } from '../../infra/constructs/tables.js';
import { ContextError, readServiceContext } from '../../infra/context.js';
import type { ServiceStack } from '../../infra/stacks/service-stack.js';
import {
  IDEMPOTENCY_TABLE,
  MAIN_TABLE,
  RATE_LIMITS_TABLE,
  type TableDefinition,
} from '../../shared/adapters/dynamodb/tables.js';
import type { OperationResource } from '../../shared/http/operation.js';
import { isTool } from '../../shared/mcp/tool-catalog.js';
import { operations } from '../../shared/operations/registry.js';
import { loadConfig } from '../../shared/runtime/config.js';
import {
  actionsOf,
  buildStack,
  type CfnResource,
  getAtt,
  type Json,
  logicalId,
  normalizedAll,
  type PolicyStatement,
  permissionsOf,
  processEnvironment,
  SynthesizedStack,
} from './stack-fixture.js';
import { SYNTH_TIMEOUT_MS } from './synth-timeout.js';

/**
 * What each declared resource adds, written out here on its own (not read from infra/), so the union
 * is checked against the registry's declarations rather than against the code that computes it.
 */
const OBJECT_ACTION_OF: Partial<Record<OperationResource, string>> = {
  'media-upload': 's3:PutObject',
  'media-read': 's3:GetObject',
  'media-delete': 's3:DeleteObject',
};

describe('MCP endpoint: one function, at ANY /mcp on the HTTP API and at its own Function URL', {
  timeout: SYNTH_TIMEOUT_MS,
}, () => {
  let stack: ServiceStack;
  let synth: SynthesizedStack;
  let mcpFunctionId: string;

  beforeAll(() => {
    stack = buildStack({ bundle: false });
    synth = new SynthesizedStack(stack);
    mcpFunctionId = logicalId(stack.mcp.server.function);
  });

  const mcpFunction = () => synth.functionOf(stack.mcp.server);

  describe('the function', () => {
    it('is one of the service functions, with an operation function’s runtime, memory and timeout', () => {
      // Act
      const fn = mcpFunction();

      // Assess
      expect(stack.functions).toContain(stack.mcp.server);
      expect(stack.mcp.server.node.path).toBe('SocialPublishing-test/Mcp/McpServer');
      expect(fn.Properties).toMatchObject({
        Handler: 'index.handler',
        Runtime: 'nodejs22.x',
        MemorySize: 1024,
        Timeout: 10,
        TracingConfig: { Mode: 'Active' },
      });
      // Which file it is built from shows in the bundle: service-stack.test.ts reads its source map.
    });

    it('has no reserved concurrency unless the context asks for it', () => {
      // Prepare: as `-c mcpReservedConcurrency=50` gives it to infra/app.ts.
      const context = readServiceContext(new App({ context: { mcpReservedConcurrency: '50' } }).node);

      // Act
      const capped = new SynthesizedStack(buildStack({ bundle: false, props: context }));

      // Assess
      expect(mcpFunction().Properties.ReservedConcurrentExecutions).toBeUndefined();
      expect(context.mcpReservedConcurrency).toBe(50);
      expect(capped.functionOf(capped.stack.mcp.server).Properties.ReservedConcurrentExecutions).toBe(50);
      for (const fn of capped.stack.functions.filter((f) => f !== capped.stack.mcp.server)) {
        expect(capped.functionOf(fn).Properties.ReservedConcurrentExecutions, fn.node.path).toBeUndefined();
      }
    });

    it.each([0, -1, 2.5, 'many'])('refuses mcpReservedConcurrency %j with a sentence', (value) => {
      expect(() => readServiceContext(new App({ context: { mcpReservedConcurrency: value } }).node)).toThrow(
        ContextError,
      );
    });

    it('gets the tools’ environments together without OPERATION_ID, and the key ARN since a tool may encrypt', () => {
      // Prepare
      const environments = operations
        .filter(isTool)
        .map((operation) =>
          synth.environmentOf(stack.api.operationFunctions.get(operation.id) as ServiceFunction),
        );
      const { OPERATION_ID: _operationId, ...expected } = Object.assign({}, ...environments) as Json;

      // Act
      const variables = synth.environmentOf(mcpFunction());

      // Assess
      expect(variables).toEqual(expected);
      expect(variables.SECRETS_KEY_ARN).toEqual(getAtt(stack.secretsKey.key, 'Arn'));
      expect(loadConfig(processEnvironment(variables)).secretsKeyArn).toBeDefined();
    });

    it('is watched by an errors alarm like every function', () => {
      const alarms = synth
        .ofType('AWS::CloudWatch::Alarm')
        .filter(
          ([, alarm]) =>
            alarm.Properties.MetricName === 'Errors' &&
            JSON.stringify(alarm.Properties.Dimensions) ===
              JSON.stringify([{ Name: 'FunctionName', Value: { Ref: mcpFunctionId } }]),
        );
      expect(alarms).toHaveLength(1);
    });
  });

  describe('the route', () => {
    it('ANY /mcp sends every method to the MCP function (payload 2.0), and no other route does', () => {
      // Act
      const behind = synth.functionBehindRoute(`ANY ${MCP_PATH}`);
      const otherRoutes = synth
        .ofType('AWS::ApiGatewayV2::Route')
        .map(([, route]) => route.Properties.RouteKey as string)
        .filter((routeKey) => routeKey !== 'ANY /mcp');

      // Assess
      expect(behind.id).toBe(mcpFunctionId);
      expect(otherRoutes.length).toBeGreaterThan(0);
      for (const routeKey of otherRoutes) {
        expect(synth.functionBehindRoute(routeKey).id, routeKey).not.toBe(mcpFunctionId);
      }
    });

    it('API Gateway may invoke the function from this API’s /mcp route only', () => {
      // Act
      const permissions = synth
        .ofType('AWS::Lambda::Permission')
        .filter(
          ([, p]) =>
            p.Properties.Principal === 'apigateway.amazonaws.com' &&
            JSON.stringify(p.Properties.FunctionName) ===
              JSON.stringify(getAtt(stack.mcp.server.function, 'Arn')),
        );

      // Assess
      expect(permissions).toHaveLength(1);
      const sourceArn = JSON.stringify(permissions[0]?.[1].Properties.SourceArn);
      expect(sourceArn).toContain(JSON.stringify({ Ref: logicalId(stack.api.httpApi) }));
      expect(sourceArn).toMatch(/"\/\*\/\*\/mcp"\]\]\}$/);
    });
  });

  describe('the Function URL', () => {
    it('is the only Function URL of the stack: auth type NONE (the Bearer check is inside), no CORS', () => {
      // Act
      const urls = synth.ofType('AWS::Lambda::Url');

      // Assess
      expect(urls.map(([, url]) => url.Properties)).toEqual([
        { AuthType: 'NONE', TargetFunctionArn: getAtt(stack.mcp.server.function, 'Arn') },
      ]);
    });

    it('anyone may invoke the MCP function, through its Function URL only; no other function is public', () => {
      // Act
      const publicPermissions = synth
        .ofType('AWS::Lambda::Permission')
        .filter(([, p]) => p.Properties.Principal === '*')
        .map(([, p]) => p.Properties);

      // Assess
      const functionArn = getAtt(stack.mcp.server.function, 'Arn');
      expect(publicPermissions).toEqual(
        expect.arrayContaining([
          {
            Action: 'lambda:InvokeFunctionUrl',
            FunctionName: functionArn,
            FunctionUrlAuthType: 'NONE',
            Principal: '*',
          },
          // Lambda asks both since October 2025: a URL without it answers 403.
          {
            Action: 'lambda:InvokeFunction',
            FunctionName: functionArn,
            InvokedViaFunctionUrl: true,
            Principal: '*',
          },
        ]),
      );
      expect(publicPermissions).toHaveLength(2);
    });
  });

  describe('outputs', () => {
    it('McpUrl is the API’s endpoint + /mcp; McpFunctionUrl is the Function URL', () => {
      // Act
      const { outputs } = synth;

      // Assess
      expect(outputs.McpUrl?.Value).toEqual({
        'Fn::Join': ['', [getAtt(stack.api.httpApi, 'ApiEndpoint'), '/mcp']],
      });
      const [[urlId]] = synth.ofType('AWS::Lambda::Url') as [[string, CfnResource]];
      expect(outputs.McpFunctionUrl?.Value).toEqual({ 'Fn::GetAtt': [urlId, 'FunctionUrl'] });
    });
  });

  describe('least privilege', () => {
    it('the union helper matches the registry’s declarations: both tables, the declared extras, no more', () => {
      // Prepare
      const declared = new Set(operations.filter(isTool).flatMap((o) => o.resources ?? []));
      const expectedTables: TableDefinition[] = [
        MAIN_TABLE,
        RATE_LIMITS_TABLE,
        ...(declared.has('idempotency-table') ? [IDEMPOTENCY_TABLE] : []),
      ];

      // Act
      const union = mcpGrants(operations);

      // Assess
      expect(union.tables.map((t) => t.id).sort()).toEqual(expectedTables.map((t) => t.id).sort());
      expect([...union.objectActions].sort()).toEqual(
        [...declared].flatMap((resource) => OBJECT_ACTION_OF[resource] ?? []).sort(),
      );
      expect([...union.encryptSecretsFor].sort()).toEqual(
        [
          ...(declared.has('secrets-encrypt') ? ['webhook-signing-secret'] : []),
          ...(declared.has('oauth-tokens-encrypt') ? ['oauth-token'] : []),
        ].sort(),
      );
      expect(union.decryptSecretsFor).toEqual(declared.has('oauth-tokens-decrypt') ? ['oauth-token'] : []);
      expect(union.networkApps).toBe(declared.has('network-apps'));
      // Today's tools declare at least these, so the test below compares a policy with every part.
      expect([...declared]).toEqual(
        expect.arrayContaining([
          'idempotency-table',
          'media-upload',
          'media-read',
          'media-delete',
          'secrets-encrypt',
        ]),
      );
    });

    it('its policy grants exactly the union (computed from the registry), beside its logs and X-Ray', () => {
      // Prepare
      const union = mcpGrants(operations);
      const tableArn = (definition: TableDefinition) => getAtt(stack.data.tableOf(definition), 'Arn');
      const expected: PolicyStatement[] = [
        {
          Effect: 'Allow',
          Action: [...DATA_ACTIONS],
          Resource: union.tables.flatMap((definition) => [
            tableArn(definition),
            ...definition.globalSecondaryIndexes.map((index) => ({
              'Fn::Join': ['', [tableArn(definition), `/index/${index.indexName}`]],
            })),
          ]),
        },
        {
          Effect: 'Allow',
          Action: [...union.objectActions],
          Resource: { 'Fn::Join': ['', [getAtt(stack.media.bucket, 'Arn'), '/t/*']] },
        },
        ...union.encryptSecretsFor.map((purpose) => ({
          Effect: 'Allow',
          Action: 'kms:Encrypt',
          Resource: getAtt(stack.secretsKey.key, 'Arn'),
          Condition: { StringEquals: { 'kms:EncryptionContext:purpose': purpose } },
        })),
        ...union.decryptSecretsFor.map((purpose) => ({
          Effect: 'Allow',
          Action: 'kms:Decrypt',
          Resource: getAtt(stack.secretsKey.key, 'Arn'),
          Condition: { StringEquals: { 'kms:EncryptionContext:purpose': purpose } },
        })),
        ...(union.networkApps
          ? [
              {
                Effect: 'Allow',
                Action: 'secretsmanager:GetSecretValue',
                Resource: [...stack.networkApps.secrets.values()].map((secret) => ({
                  Ref: logicalId(secret),
                })),
              },
            ]
          : []),
      ];

      // Act
      const grants = synth.grantsOf(stack.mcp.server);

      // Assess
      expect(normalizedAll(grants)).toEqual(normalizedAll(expected));
    });

    it('allows exactly what the tools’ operation functions allow between them: nothing more, nothing less', () => {
      // Prepare
      const operationPermissions = new Set(
        operations
          .filter(isTool)
          .map((operation) => stack.api.operationFunctions.get(operation.id) as ServiceFunction)
          .flatMap((fn) => [...permissionsOf(synth.grantsOf(fn))]),
      );

      // Act
      const mcpPermissions = permissionsOf(synth.grantsOf(stack.mcp.server));

      // Assess
      expect([...mcpPermissions].sort()).toEqual([...operationPermissions].sort());
    });

    it('decrypts OAuth tokens at most (for a tool that revokes), never webhook secrets; touches no queue, schedule, stream or role', () => {
      // Act
      const statements = synth.statementsOf(stack.mcp.server);
      const actions = statements.flatMap(actionsOf);

      // Assess
      for (const statement of statements.filter((s) => actionsOf(s).includes('kms:Decrypt'))) {
        expect(statement.Condition).toEqual({
          StringEquals: { 'kms:EncryptionContext:purpose': 'oauth-token' },
        });
      }
      const union = mcpGrants(operations);
      expect(new Set(actions.filter((a) => a.startsWith('kms:') || a.startsWith('secretsmanager:')))).toEqual(
        new Set([
          'kms:Encrypt',
          ...(union.decryptSecretsFor.length > 0 ? ['kms:Decrypt'] : []),
          ...(union.networkApps ? ['secretsmanager:GetSecretValue'] : []),
        ]),
      );
      for (const prefix of ['sqs:', 'scheduler:', 'iam:', 'lambda:']) {
        expect(
          actions.filter((a) => a.startsWith(prefix)),
          prefix,
        ).toEqual([]);
      }
      expect(actions.filter((a) => a.startsWith('dynamodb:') && /Stream|Shard/.test(a))).toEqual([]);
    });

    it('follows the registry: without media, webhook or account-connecting tools, no S3, KMS or secret, no key ARN; nag still clean', () => {
      // Prepare
      const plain = operations.filter(
        (o) => !isTool(o) || !(o.resources ?? []).some((r) => r !== 'idempotency-table'),
      );
      expect(plain.length).toBeGreaterThan(1);

      // Act
      const narrow = new SynthesizedStack(buildStack({ bundle: false, operations: plain }));

      // Assess
      const actions = narrow.grantsOf(narrow.stack.mcp.server).flatMap(actionsOf);
      expect(actions.length).toBeGreaterThan(0);
      expect(actions.filter((a) => /^(s3|kms|secretsmanager):/.test(a))).toEqual([]);
      const variables = narrow.environmentOf(narrow.stack.mcp.server);
      expect(variables.SECRETS_KEY_ARN).toBeUndefined();
      expect(
        Object.keys(variables).filter((name) => /_APP_SECRET_ARN$|^PUBLIC_BASE_URL$/.test(name)),
      ).toEqual([]);
      expect(new AwsSolutionsChecks().validateScope(narrow.stack).violations).toEqual([]);
    });
  });
});
