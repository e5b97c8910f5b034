import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_PATH, dashboardGrants } from '../../infra/constructs/dashboard-endpoint.js';
import type { ServiceFunction } from '../../infra/constructs/service-function.js';
import { DATA_ACTIONS } from '../../infra/constructs/tables.js';
import type { ServiceStack } from '../../infra/stacks/service-stack.js';
import {
  IDEMPOTENCY_TABLE,
  MAIN_TABLE,
  RATE_LIMITS_TABLE,
  type TableDefinition,
} from '../../shared/adapters/dynamodb/tables.js';
import { DASHBOARD_OPERATION_IDS, isDashboardOperation } from '../../shared/dashboard/operations-used.js';
import { operations } from '../../shared/operations/registry.js';
import { loadConfig } from '../../shared/runtime/config.js';
import { secureCookiesFor } from '../../shared/runtime/secure-cookies.js';
import {
  actionsOf,
  buildStack,
  getAtt,
  type Json,
  logicalId,
  type PolicyStatement,
  permissionsOf,
  processEnvironment,
  resourcesOf,
  SynthesizedStack,
  XRAY_STATEMENT,
} from './stack-fixture.js';
import { SYNTH_TIMEOUT_MS } from './synth-timeout.js';

const ROUTE_KEYS = ['ANY /dashboard', 'ANY /dashboard/{proxy+}'];

describe('dashboard endpoint: one function behind ANY /dashboard and ANY /dashboard/{proxy+}', {
  timeout: SYNTH_TIMEOUT_MS,
}, () => {
  let stack: ServiceStack;
  let synth: SynthesizedStack;

  beforeAll(() => {
    stack = buildStack({ bundle: false });
    synth = new SynthesizedStack(stack);
  });

  const dashboardFunction = () => synth.functionOf(stack.dashboard.server);
  const dashboardOperationFunctions = () =>
    operations
      .filter((operation) => isDashboardOperation(operation.id))
      .map((operation) => stack.api.operationFunctions.get(operation.id) as ServiceFunction);

  describe('the function', () => {
    it('is a service function with an operation function’s runtime, memory and timeout (scrypt needs 32 MiB of it)', () => {
      // Prepare
      const getPost = synth.functionOf(stack.api.operationFunctions.get('getPost') as ServiceFunction);

      // Act
      const fn = dashboardFunction();

      // Assess
      expect(stack.functions).toContain(stack.dashboard.server);
      expect(stack.dashboard.server.node.path).toBe('SocialPublishing-test/Dashboard/DashboardServer');
      expect(fn.Properties).toMatchObject({
        Handler: 'index.handler',
        Runtime: 'nodejs22.x',
        MemorySize: getPost.Properties.MemorySize,
        Timeout: getPost.Properties.Timeout,
        TracingConfig: { Mode: 'Active' },
      });
      expect(fn.Properties.MemorySize).toBeGreaterThanOrEqual(512);
    });

    it('gets the environment of the operations it runs (without OPERATION_ID), the key ARN and the public base URL', () => {
      // Prepare
      const environments = dashboardOperationFunctions().map((fn) => synth.environmentOf(fn));
      const { OPERATION_ID: _operationId, ...expected } = Object.assign({}, ...environments) as Json;

      // Act
      const variables = synth.environmentOf(dashboardFunction());

      // Assess
      expect(variables).toEqual({ ...expected, PUBLIC_BASE_URL: getAtt(stack.api.httpApi, 'ApiEndpoint') });
      expect(variables.SECRETS_KEY_ARN).toEqual(getAtt(stack.secretsKey.key, 'Arn'));
      const config = loadConfig(processEnvironment(variables));
      expect(config.secretsKeyArn).toBeDefined();
      expect(config.publicBaseUrl).toMatch(/^https:\/\//);
      expect(secureCookiesFor(config.publicBaseUrl)).toBe(true);
    });

    it('is watched by an errors alarm like every function', () => {
      const alarms = synth
        .ofType('AWS::CloudWatch::Alarm')
        .filter(
          ([, alarm]) =>
            alarm.Properties.MetricName === 'Errors' &&
            JSON.stringify(alarm.Properties.Dimensions) ===
              JSON.stringify([
                { Name: 'FunctionName', Value: { Ref: logicalId(stack.dashboard.server.function) } },
              ]),
        );
      expect(alarms).toHaveLength(1);
    });
  });

  describe('the routes', () => {
    it('ANY /dashboard and ANY /dashboard/{proxy+} send every method to the dashboard (payload 2.0), and no other route does', () => {
      // Prepare
      const dashboardId = logicalId(stack.dashboard.server.function);
      const otherRoutes = synth
        .ofType('AWS::ApiGatewayV2::Route')
        .map(([, route]) => route.Properties.RouteKey as string)
        .filter((routeKey) => !ROUTE_KEYS.includes(routeKey));

      // Act
      const behind = ROUTE_KEYS.map((routeKey) => synth.functionBehindRoute(routeKey).id);

      // Assess
      expect(behind).toEqual([dashboardId, dashboardId]);
      expect(otherRoutes.length).toBeGreaterThan(0);
      for (const routeKey of otherRoutes) {
        expect(synth.functionBehindRoute(routeKey).id, routeKey).not.toBe(dashboardId);
      }
      expect(`${DASHBOARD_PATH}/sign-in`).toBe('/dashboard/sign-in');
    });

    it('API Gateway may invoke the function from this API’s two dashboard routes only; nobody else may', () => {
      // Act
      const permissions = synth
        .ofType('AWS::Lambda::Permission')
        .filter(
          ([, p]) =>
            JSON.stringify(p.Properties.FunctionName) ===
            JSON.stringify(getAtt(stack.dashboard.server.function, 'Arn')),
        )
        .map(([, p]) => p.Properties);

      // Assess
      expect(permissions.map((p) => p.Principal)).toEqual([
        'apigateway.amazonaws.com',
        'apigateway.amazonaws.com',
      ]);
      const sourceArns = permissions.map((p) => JSON.stringify(p.SourceArn));
      for (const sourceArn of sourceArns) {
        expect(sourceArn).toContain(JSON.stringify({ Ref: logicalId(stack.api.httpApi) }));
      }
      expect(sourceArns.map((arn) => /\/\*\/\*(\/dashboard[^"]*)"\]\]\}$/.exec(arn)?.[1]).sort()).toEqual([
        '/dashboard',
        '/dashboard/{proxy+}',
      ]);
    });
  });

  describe('outputs', () => {
    it('DashboardUrl is the public base URL + /dashboard: the API endpoint, or the custom domain', () => {
      // Prepare
      const withDomain = new SynthesizedStack(
        buildStack({
          bundle: false,
          props: {
            customDomain: {
              domainName: 'api.example.com',
              certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc-123',
            },
          },
        }),
      );

      // Act
      const urls = [synth, withDomain].map((s) => s.outputs.DashboardUrl?.Value);

      // Assess
      expect(urls).toEqual([
        { 'Fn::Join': ['', [getAtt(stack.api.httpApi, 'ApiEndpoint'), '/dashboard']] },
        'https://api.example.com/dashboard',
      ]);
      expect(withDomain.environmentOf(withDomain.stack.dashboard.server).PUBLIC_BASE_URL).toBe(
        'https://api.example.com',
      );
    });
  });

  describe('least privilege', () => {
    it('the grants are the union of the dashboard operations’ and the people’s two tables; the composer adds the idempotency table and tenant objects', () => {
      // Act
      const grants = dashboardGrants(operations);

      // Assess
      expect(grants.tables.map((t) => t.id).sort()).toEqual(
        [MAIN_TABLE.id, RATE_LIMITS_TABLE.id, IDEMPOTENCY_TABLE.id].sort(),
      );
      // createUploadUrl signs a PUT, confirmMedia reads it back: object actions only, no list or delete.
      expect([...grants.objectActions].sort()).toEqual(['s3:GetObject', 's3:PutObject']);
      expect(grants.encryptSecretsFor).toEqual(['webhook-signing-secret']);
      expect(grants.decryptSecretsFor).toEqual(['oauth-token']);
      expect(grants.networkApps).toBe(true);
      expect(DASHBOARD_OPERATION_IDS).toContain('createPost');
      expect(DASHBOARD_OPERATION_IDS).not.toContain('deleteMedia');
    });

    it('allows exactly what its operations’ functions allow between them, plus item reads and writes on the main and rate-limits tables', () => {
      // Prepare
      const tableArn = (definition: TableDefinition) => getAtt(stack.data.tableOf(definition), 'Arn');
      const people: PolicyStatement = {
        Effect: 'Allow',
        Action: [...DATA_ACTIONS],
        Resource: [MAIN_TABLE, RATE_LIMITS_TABLE].flatMap((definition) => [
          tableArn(definition),
          ...definition.globalSecondaryIndexes.map((index) => ({
            'Fn::Join': ['', [tableArn(definition), `/index/${index.indexName}`]],
          })),
        ]),
      };
      const expected = new Set([
        ...dashboardOperationFunctions().flatMap((fn) => [...permissionsOf(synth.grantsOf(fn))]),
        ...permissionsOf([people]),
      ]);

      // Act
      const allowed = permissionsOf(synth.grantsOf(stack.dashboard.server));

      // Assess
      expect(dashboardOperationFunctions()).toHaveLength(DASHBOARD_OPERATION_IDS.length);
      expect([...allowed].sort()).toEqual([...expected].sort());
    });

    it('no wildcard action, no resource "*" but X-Ray; S3 object reads and writes only, no queue, schedule, stream or role; decrypts OAuth tokens only', () => {
      // Act
      const statements = synth.statementsOf(stack.dashboard.server);
      const actions = statements.flatMap(actionsOf);

      // Assess
      expect(actions.filter((action) => action.includes('*'))).toEqual([]);
      expect(statements.filter((s) => resourcesOf(s).includes('*'))).toEqual([XRAY_STATEMENT]);
      expect([...new Set(actions.filter((a) => a.startsWith('s3:')))].sort()).toEqual([
        's3:GetObject',
        's3:PutObject',
      ]);
      for (const prefix of ['sqs:', 'scheduler:', 'iam:', 'lambda:']) {
        expect(
          actions.filter((a) => a.startsWith(prefix)),
          prefix,
        ).toEqual([]);
      }
      expect(actions.filter((a) => a.startsWith('dynamodb:') && /Stream|Shard/.test(a))).toEqual([]);
      for (const statement of statements.filter((s) => actionsOf(s).includes('kms:Decrypt'))) {
        expect(statement.Condition).toEqual({
          StringEquals: { 'kms:EncryptionContext:purpose': 'oauth-token' },
        });
      }
    });

    it('follows the registry: without the operations it runs, only the two tables, no key or app secret; nag still clean', () => {
      // Prepare
      const without = operations.filter((operation) => !isDashboardOperation(operation.id));

      // Act
      const narrow = new SynthesizedStack(buildStack({ bundle: false, operations: without }));

      // Assess
      const tableArn = (definition: TableDefinition) => getAtt(narrow.stack.data.tableOf(definition), 'Arn');
      const grants = narrow.grantsOf(narrow.stack.dashboard.server);
      expect(grants).toHaveLength(1);
      expect(actionsOf(grants[0] as PolicyStatement).sort()).toEqual([...DATA_ACTIONS].sort());
      expect(
        resourcesOf(grants[0] as PolicyStatement).filter((resource) =>
          [MAIN_TABLE, RATE_LIMITS_TABLE].some(
            (t) => JSON.stringify(resource) === JSON.stringify(tableArn(t)),
          ),
        ),
      ).toHaveLength(2);
      const variables = narrow.environmentOf(narrow.stack.dashboard.server);
      expect(variables.SECRETS_KEY_ARN).toBeUndefined();
      expect(Object.keys(variables).filter((name) => name.endsWith('_APP_SECRET_ARN'))).toEqual([]);
      expect(variables.PUBLIC_BASE_URL).toEqual(getAtt(narrow.stack.api.httpApi, 'ApiEndpoint'));
      expect(new AwsSolutionsChecks().validateScope(narrow.stack).violations).toEqual([]);
    });
  });

  describe('cdk-nag (AWS Solutions)', () => {
    it('finds nothing unacknowledged in the stack; each dashboard route’s acknowledgement answers a real finding', () => {
      // Prepare
      const unacknowledged = new AwsSolutionsChecks().validateScope(
        buildStack({ acknowledge: false, bundle: false }),
      );
      const dashboardFindings = unacknowledged.violations
        .filter((v) => v.violatingResources.some((r) => r.constructPath?.includes('/Dashboard/')))
        .map((v) => v.ruleName);

      // Act
      const report = new AwsSolutionsChecks().validateScope(stack);

      // Assess
      expect(report.violations.map((v) => v.ruleName)).toEqual([]);
      // The two routes have no authorizer (the function checks the session); the function and its
      // role get the acknowledgements every service function gets (runtime, X-Ray's resource "*"),
      // and, as every function that uploads media, the tenant objects' prefix (the composer).
      expect(new Set(dashboardFindings)).toEqual(
        new Set([
          'AwsSolutions-APIG4',
          'AwsSolutions-L1',
          'AwsSolutions-IAM5[Resource::*]',
          'AwsSolutions-IAM5[Resource::<MediaBucket4022EBBF.Arn>/t/*]',
        ]),
      );
    });
  });
});
