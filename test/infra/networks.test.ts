import { App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { APP_SECRET_PLACEHOLDER } from '../../infra/constructs/network-apps.js';
import type { ServiceFunction } from '../../infra/constructs/service-function.js';
import { WORKER_TIMEOUTS } from '../../infra/constructs/timeouts.js';
import { readServiceContext } from '../../infra/context.js';
import type { ServiceStack } from '../../infra/stacks/service-stack.js';
import { MAIN_TABLE, RATE_LIMITS_TABLE } from '../../shared/adapters/dynamodb/tables.js';
import { defineOperation, type Operation, type OperationResource } from '../../shared/http/operation.js';
import { APP_IDS } from '../../shared/networks/definitions.js';
import { operations as registry } from '../../shared/operations/registry.js';
import { loadConfig } from '../../shared/runtime/config.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../shared/runtime/network-config.js';
import {
  actionsOf,
  buildStack,
  getAtt,
  type Json,
  logicalId,
  processEnvironment,
  ref,
  resourcesOf,
  SynthesizedStack,
} from './stack-fixture.js';
import { SYNTH_TIMEOUT_MS } from './synth-timeout.js';

const NETWORK_RESOURCES: readonly OperationResource[] = [
  'network-apps',
  'oauth-tokens-encrypt',
  'oauth-tokens-decrypt',
];

/** An operation that exists only here, shaped like the accounts operations as far as the stack sees. */
function networkOperation(
  id: string,
  method: 'GET' | 'POST' | 'DELETE',
  auth: 'apiKey' | 'none',
  resources: OperationResource[],
): Operation {
  return defineOperation({
    id,
    method,
    path: `/v1/test-networks/${id}`,
    summary: 'Test-only operation',
    description: 'Test-only operation',
    tag: 'Test',
    auth,
    rateLimitFamily: 'other',
    workspace: 'none',
    resources,
    successStatus: 200,
    schemas: { params: z.object({}), query: z.object({}), response: z.object({}) },
    async handler() {
      return {};
    },
  }) as Operation;
}

/**
 * The registry without whatever of it already declares the networks' resources, plus three stand-ins
 * for connect, the OAuth callback (no API key) and disconnect: the tests hold whether or not the
 * accounts operations are in the registry yet. test/infra/permissions.test.ts checks the registry's
 * own operations against their declarations.
 */
const connect = networkOperation('testConnect', 'POST', 'apiKey', ['network-apps']);
const callback = networkOperation('testCallback', 'GET', 'none', ['network-apps', 'oauth-tokens-encrypt']);
const disconnect = networkOperation('testDisconnect', 'DELETE', 'apiKey', [
  'network-apps',
  'oauth-tokens-decrypt',
]);
const operations = [
  ...registry.filter((o) => !(o.resources ?? []).some((r) => NETWORK_RESOURCES.includes(r))),
  connect,
  callback,
  disconnect,
];

/** Every app of the registry, as its secret's name ends (`linkedin-community`) and its variable is named. */
const APPS = APP_IDS.map((app) => app.toLowerCase().replaceAll('_', '-'));
const SECRET_ENV = APP_IDS.map((app) => `${app}_APP_SECRET_ARN`);
const purpose = (name: string) => ({ StringEquals: { 'kms:EncryptionContext:purpose': name } });

describe("the networks' apps, tokens and token refresher in the stack", { timeout: SYNTH_TIMEOUT_MS }, () => {
  let stack: ServiceStack;
  let synth: SynthesizedStack;

  beforeAll(() => {
    stack = buildStack({ bundle: false, operations });
    synth = new SynthesizedStack(stack);
  });

  const fnOf = (operation: Operation) => stack.api.operationFunctions.get(operation.id) as ServiceFunction;
  /** The functions whose code calls the networks: these three operations, MCP, three workers. */
  const callers = () => [
    fnOf(connect),
    fnOf(callback),
    fnOf(disconnect),
    stack.mcp.server,
    stack.workers.deliveryWorker,
    stack.workers.reconciler,
    stack.workers.tokenRefresher,
  ];
  const secretRefs = () =>
    [...stack.networkApps.secrets.values()].map((secret) => ({ Ref: logicalId(secret) }));
  const kmsStatements = (fn: ServiceFunction) =>
    synth.statementsOf(fn).filter((s) => actionsOf(s).some((a) => a.startsWith('kms:')));

  describe('app secrets', () => {
    it("are one per app, named <prefix><app>, holding the placeholder to fill in, retained, under Secrets Manager's own key", () => {
      // Act
      const secrets = synth.ofType('AWS::SecretsManager::Secret').map(([, secret]) => secret);

      // Assess
      expect(secrets.map((secret) => secret.Properties.Name).sort()).toEqual(
        APPS.map((app) => `social-publishing/test/networks/${app}`).sort(),
      );
      for (const secret of secrets) {
        expect(secret.Properties.SecretString).toBe(APP_SECRET_PLACEHOLDER);
        expect(JSON.parse(APP_SECRET_PLACEHOLDER)).toEqual({ clientId: '', clientSecret: '' });
        expect(secret.Properties.KmsKeyId).toBeUndefined();
        expect(secret.Properties.GenerateSecretString).toBeUndefined();
        expect(secret.DeletionPolicy).toBe('Retain');
        expect(secret.UpdateReplacePolicy).toBe('Retain');
      }
    });

    it('are named under the networkSecretsPrefix context', () => {
      // Act
      const custom = new SynthesizedStack(
        buildStack({ bundle: false, operations, props: { networkSecretsPrefix: 'acme/prod/' } }),
      );

      // Assess
      expect(
        custom
          .ofType('AWS::SecretsManager::Secret')
          .map(([, s]) => s.Properties.Name)
          .sort(),
      ).toEqual(APPS.map((app) => `acme/prod/${app}`).sort());
    });

    it('may be read only by the functions that call the networks, GetSecretValue on exactly those six', () => {
      // Prepare
      const expected = new Set(callers());

      for (const fn of stack.functions) {
        // Act
        const statements = synth
          .statementsOf(fn)
          .filter((s) => actionsOf(s).some((a) => a.startsWith('secretsmanager:')));

        // Assess
        if (expected.has(fn)) {
          expect(statements, fn.node.path).toEqual([
            { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: secretRefs() },
          ]);
        } else {
          expect(statements, fn.node.path).toEqual([]);
        }
      }
    });

    it("are named to exactly those functions, one variable per app holding the secret's ARN", () => {
      const expected = new Set(callers());
      for (const fn of stack.functions) {
        // Act
        const variables = synth.environmentOf(fn);

        // Assess
        const named = Object.fromEntries(
          SECRET_ENV.flatMap((name) => (name in variables ? [[name, variables[name]]] : [])),
        );
        if (expected.has(fn)) {
          expect(named, fn.node.path).toEqual(
            Object.fromEntries(
              [...stack.networkApps.secrets].map(([app, secret]) => [`${app}_APP_SECRET_ARN`, ref(secret)]),
            ),
          );
        } else {
          expect(named, fn.node.path).toEqual({});
        }
      }
    });
  });

  describe('the key and OAuth tokens', () => {
    it('every KMS grant of every function names the key and one purpose', () => {
      for (const fn of stack.functions) {
        for (const statement of kmsStatements(fn)) {
          expect(resourcesOf(statement), fn.node.path).toEqual([getAtt(stack.secretsKey.key, 'Arn')]);
          expect(Object.keys((statement.Condition?.StringEquals ?? {}) as Json), fn.node.path).toEqual([
            'kms:EncryptionContext:purpose',
          ]);
          expect(actionsOf(statement), fn.node.path).toHaveLength(1);
        }
      }
    });

    it('no function but the webhook dispatcher can decrypt webhook signing secrets', () => {
      // Act
      const decrypting = stack.functions.filter((fn) =>
        kmsStatements(fn).some(
          (s) =>
            actionsOf(s).includes('kms:Decrypt') &&
            JSON.stringify(s.Condition) === JSON.stringify(purpose('webhook-signing-secret')),
        ),
      );

      // Assess
      expect(decrypting).toEqual([stack.workers.webhookDispatcher]);
    });

    it('tokens are decrypted only where they are used: disconnect (revoke), MCP, and the three workers that call the networks', () => {
      // Act
      const decrypting = stack.functions.filter((fn) =>
        kmsStatements(fn).some(
          (s) =>
            actionsOf(s).includes('kms:Decrypt') &&
            JSON.stringify(s.Condition) === JSON.stringify(purpose('oauth-token')),
        ),
      );

      // Assess
      expect(new Set(decrypting)).toEqual(
        new Set([
          fnOf(disconnect),
          stack.mcp.server,
          stack.workers.deliveryWorker,
          stack.workers.reconciler,
          stack.workers.tokenRefresher,
        ]),
      );
    });

    it('the callback (no API key) may only encrypt tokens, with the main table and the app secrets: nothing to decrypt, no rate-limits table', () => {
      // Act
      const grants = synth.grantsOf(fnOf(callback));

      // Assess
      expect(kmsStatements(fnOf(callback))).toEqual([
        {
          Effect: 'Allow',
          Action: 'kms:Encrypt',
          Resource: getAtt(stack.secretsKey.key, 'Arn'),
          Condition: purpose('oauth-token'),
        },
      ]);
      const tables = JSON.stringify(grants);
      expect(tables).toContain(logicalId(stack.data.tableOf(MAIN_TABLE)));
      expect(tables).not.toContain(logicalId(stack.data.tableOf(RATE_LIMITS_TABLE)));
      expect(
        grants
          .flatMap(actionsOf)
          .filter((a) => !a.startsWith('dynamodb:'))
          .sort(),
      ).toEqual(['kms:Encrypt', 'secretsmanager:GetSecretValue']);
      expect(synth.environmentOf(fnOf(callback)).SECRETS_KEY_ARN).toEqual(
        getAtt(stack.secretsKey.key, 'Arn'),
      );
    });

    it('connect reads the app secrets and uses no key; disconnect decrypts tokens and encrypts none', () => {
      expect(kmsStatements(fnOf(connect))).toEqual([]);
      expect(synth.environmentOf(fnOf(connect)).SECRETS_KEY_ARN).toBeUndefined();
      expect(kmsStatements(fnOf(disconnect)).flatMap(actionsOf)).toEqual(['kms:Decrypt']);
    });

    it('the workers that call the networks encrypt and decrypt tokens (a refresh stores rotated ones), and know the key', () => {
      for (const fn of [
        stack.workers.deliveryWorker,
        stack.workers.reconciler,
        stack.workers.tokenRefresher,
      ]) {
        const tokenGrants = kmsStatements(fn).map((s) => [actionsOf(s)[0], s.Condition]);
        expect(tokenGrants.sort(), fn.node.path).toEqual(
          [
            ['kms:Decrypt', purpose('oauth-token')],
            ['kms:Encrypt', purpose('oauth-token')],
          ].sort(),
        );
        expect(synth.environmentOf(fn).SECRETS_KEY_ARN, fn.node.path).toEqual(
          getAtt(stack.secretsKey.key, 'Arn'),
        );
      }
    });
  });

  describe('the token refresher', () => {
    it('runs once a day on an EventBridge schedule, with the longest Lambda time-out', () => {
      // Act
      const rule = synth.of(stack.workers.tokenRefresherRule, 'AWS::Events::Rule');
      const fn = synth.functionOf(stack.workers.tokenRefresher);

      // Assess
      expect(rule.Properties.ScheduleExpression).toBe('cron(17 3 * * ? *)');
      expect(rule.Properties.State).toBe('ENABLED');
      expect(rule.Properties.Targets).toEqual([
        { Arn: getAtt(stack.workers.tokenRefresher.function, 'Arn'), Id: 'Target0' },
      ]);
      expect(fn.Properties.Timeout).toBe(WORKER_TIMEOUTS.tokenRefresher.toSeconds());
      expect(fn.Properties.Timeout).toBe(900);
    });

    it('may be invoked by that rule only', () => {
      // Act
      const permissions = synth
        .ofType('AWS::Lambda::Permission')
        .map(([, p]) => p.Properties)
        .filter(
          (p) =>
            JSON.stringify(p.FunctionName) ===
            JSON.stringify(getAtt(stack.workers.tokenRefresher.function, 'Arn')),
        );

      // Assess
      expect(permissions).toEqual([
        {
          Action: 'lambda:InvokeFunction',
          FunctionName: getAtt(stack.workers.tokenRefresher.function, 'Arn'),
          Principal: 'events.amazonaws.com',
          SourceArn: getAtt(stack.workers.tokenRefresherRule, 'Arn'),
        },
      ]);
    });

    it('has an errors alarm like every function', () => {
      const alarms = synth
        .ofType('AWS::CloudWatch::Alarm')
        .map(([, alarm]) => alarm.Properties)
        .filter(
          (alarm) =>
            alarm.MetricName === 'Errors' &&
            JSON.stringify(alarm.Dimensions) ===
              JSON.stringify([{ Name: 'FunctionName', Value: ref(stack.workers.tokenRefresher.function) }]),
        );
      expect(alarms).toHaveLength(1);
      expect(alarms[0]?.AlarmActions).toEqual([ref(stack.alarms.topic)]);
    });

    it('starts: its config loads, with the key and the app secrets', () => {
      // Act
      const config = loadConfig(processEnvironment(synth.environmentOf(stack.workers.tokenRefresher)));

      // Assess
      expect(config.secretsKeyArn).toBeDefined();
      expect(config.networkEndpoints).toEqual(NETWORK_ENDPOINT_DEFAULTS);
    });
  });

  describe('endpoints and the public base URL', () => {
    it('by default no endpoint is set anywhere, so the code uses the real hosts', () => {
      for (const fn of stack.functions) {
        const variables = synth.environmentOf(fn);
        expect(
          Object.keys(NETWORK_ENDPOINT_DEFAULTS).filter((name) => name in variables),
          fn.node.path,
        ).toEqual([]);
      }
    });

    it('endpoints given as context reach exactly the functions that call the networks', () => {
      // Prepare
      const context = readServiceContext(
        new App({
          context: {
            X_API_URL: 'https://x.staging.example.com/',
            LINKEDIN_OAUTH_URL: 'https://li.staging.example.com/oauth/v2',
          },
        }).node,
      );

      // Act
      const custom = new SynthesizedStack(
        buildStack({ bundle: false, operations, props: { networkEndpoints: context.networkEndpoints } }),
      );

      // Assess
      const { stack: s } = custom;
      const expected = new Set([
        s.api.operationFunctions.get(connect.id),
        s.api.operationFunctions.get(callback.id),
        s.api.operationFunctions.get(disconnect.id),
        s.mcp.server,
        s.workers.deliveryWorker,
        s.workers.reconciler,
        s.workers.tokenRefresher,
      ]);
      for (const fn of s.functions) {
        const variables = custom.environmentOf(fn);
        if (expected.has(fn)) {
          expect(variables, fn.node.path).toMatchObject({
            X_API_URL: 'https://x.staging.example.com',
            LINKEDIN_OAUTH_URL: 'https://li.staging.example.com/oauth/v2',
          });
          expect(loadConfig(processEnvironment(variables)).networkEndpoints.X_API_URL, fn.node.path).toBe(
            'https://x.staging.example.com',
          );
        } else {
          expect(variables.X_API_URL, fn.node.path).toBeUndefined();
        }
      }
    });

    it("PUBLIC_BASE_URL is the API's endpoint on the operations that call the networks, on MCP and on the dashboard (its links), nowhere else", () => {
      const expected = new Set([
        fnOf(connect),
        fnOf(callback),
        fnOf(disconnect),
        stack.mcp.server,
        stack.dashboard.server,
      ]);
      for (const fn of stack.functions) {
        const value = synth.environmentOf(fn).PUBLIC_BASE_URL;
        expect(value, fn.node.path).toEqual(
          expected.has(fn) ? getAtt(stack.api.httpApi, 'ApiEndpoint') : undefined,
        );
      }
      expect(loadConfig(processEnvironment(synth.environmentOf(fnOf(connect)))).publicBaseUrl).toMatch(
        /^https:/,
      );
    });

    it('PUBLIC_BASE_URL is the custom domain when one is configured', () => {
      // Act
      const withDomain = new SynthesizedStack(
        buildStack({
          bundle: false,
          operations,
          props: {
            customDomain: {
              domainName: 'api.example.com',
              certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc-123',
            },
          },
        }),
      );

      // Assess
      const fn = withDomain.stack.api.operationFunctions.get(callback.id) as ServiceFunction;
      expect(withDomain.environmentOf(fn).PUBLIC_BASE_URL).toBe('https://api.example.com');
      expect(withDomain.environmentOf(withDomain.stack.mcp.server).PUBLIC_BASE_URL).toBe(
        'https://api.example.com',
      );
      expect(withDomain.outputs.OAuthCallbackUrl?.Value).toBe(
        'https://api.example.com/v1/oauth/{platform}/callback',
      );
    });
  });

  it('cdk-nag finds nothing unacknowledged with these operations', () => {
    const report = new AwsSolutionsChecks().validateScope(stack);
    expect(
      report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath)}`),
    ).toEqual([]);
  });
});
