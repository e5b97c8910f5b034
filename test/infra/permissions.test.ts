import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServiceFunction } from '../../infra/constructs/service-function.js';
import { DATA_ACTIONS } from '../../infra/constructs/tables.js';
import type { ServiceStack } from '../../infra/stacks/service-stack.js';
import {
  IDEMPOTENCY_TABLE,
  MAIN_TABLE,
  RATE_LIMITS_TABLE,
  type TableDefinition,
} from '../../shared/adapters/dynamodb/tables.js';
import type { Operation, OperationResource } from '../../shared/http/operation.js';
import { operations } from '../../shared/operations/registry.js';
import {
  actionsOf,
  buildStack,
  type CfnResource,
  getAtt,
  LOGS_ACTIONS,
  logicalId,
  normalizedAll,
  type PolicyStatement,
  resourcesOf,
  SynthesizedStack,
  XRAY_STATEMENT,
} from './stack-fixture.js';
import { SYNTH_TIMEOUT_MS } from './synth-timeout.js';

/**
 * What each declared resource must add to an operation's grants, written out here on its own (not
 * read from infra/) so the test checks the stack against the registry, not the stack against itself.
 */
const OBJECT_ACTION_OF: Partial<Record<OperationResource, string>> = {
  'media-upload': 's3:PutObject',
  'media-read': 's3:GetObject',
  'media-delete': 's3:DeleteObject',
};

/** `arn:<partition>:<service>:<region>:<account><rest>`, as CDK's formatArn writes it. */
const regionalArn = (service: string, rest: string) => ({
  'Fn::Join': [
    '',
    [
      'arn:',
      { Ref: 'AWS::Partition' },
      `:${service}:`,
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      rest,
    ],
  ],
});
const SCHEDULES_ARN = regionalArn('scheduler', ':schedule/social-publishing-test/*');

const CONSUME_ACTIONS = [
  'sqs:ChangeMessageVisibility',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
  'sqs:GetQueueUrl',
  'sqs:ReceiveMessage',
];

describe('least-privilege IAM per function', { timeout: SYNTH_TIMEOUT_MS }, () => {
  let stack: ServiceStack;
  let synth: SynthesizedStack;

  beforeAll(() => {
    stack = buildStack({ bundle: false });
    synth = new SynthesizedStack(stack);
  });

  // References as the template writes them.
  const tableArn = (definition: TableDefinition) => getAtt(stack.data.tableOf(definition), 'Arn');
  const tableAndIndexes = (definition: TableDefinition) => [
    tableArn(definition),
    ...definition.globalSecondaryIndexes.map((index) => ({
      'Fn::Join': ['', [tableArn(definition), `/index/${index.indexName}`]],
    })),
  ];
  const tenantObjects = () => ({ 'Fn::Join': ['', [getAtt(stack.media.bucket, 'Arn'), '/t/*']] });
  const queueArn = (queue: IConstruct) => getAtt(queue, 'Arn');
  const data = (...definitions: TableDefinition[]): PolicyStatement => ({
    Effect: 'Allow',
    Action: [...DATA_ACTIONS],
    Resource: definitions.flatMap(tableAndIndexes),
  });
  const objects = (...actions: string[]): PolicyStatement => ({
    Effect: 'Allow',
    Action: actions,
    Resource: tenantObjects(),
  });
  const send = (...queues: IConstruct[]): PolicyStatement => ({
    Effect: 'Allow',
    Action: 'sqs:SendMessage',
    Resource: queues.map(queueArn),
  });
  const consume = (queue: IConstruct): PolicyStatement => ({
    Effect: 'Allow',
    Action: CONSUME_ACTIONS,
    Resource: queueArn(queue),
  });
  /** One KMS action on the secrets key, for one purpose only. */
  const keyUse = (action: 'kms:Encrypt' | 'kms:Decrypt', purpose: string): PolicyStatement => ({
    Effect: 'Allow',
    Action: action,
    Resource: getAtt(stack.secretsKey.key, 'Arn'),
    Condition: { StringEquals: { 'kms:EncryptionContext:purpose': purpose } },
  });
  const encryptWebhookSecrets = () => keyUse('kms:Encrypt', 'webhook-signing-secret');
  /** GetSecretValue on the five app secrets the stack creates, named one by one. */
  const readAppSecrets = (): PolicyStatement => ({
    Effect: 'Allow',
    Action: 'secretsmanager:GetSecretValue',
    Resource: [...stack.networkApps.secrets.values()].map((secret) => ({ Ref: logicalId(secret) })),
  });
  /** What every function that calls the networks holds: the app secrets, the tokens both ways. */
  const callsNetworks = (): PolicyStatement[] => [
    readAppSecrets(),
    keyUse('kms:Encrypt', 'oauth-token'),
    keyUse('kms:Decrypt', 'oauth-token'),
  ];
  const operationFunction = (id: string): CfnResource => {
    const operation = operations.find((candidate) => candidate.id === id) as Operation;
    return synth.functionBehindRoute(`${operation.method} ${operation.path}`).resource;
  };
  const hasS3 = (statements: PolicyStatement[]) =>
    statements.some((statement) => actionsOf(statement).some((action) => action.startsWith('s3:')));

  describe('every role', () => {
    it('has no statement on Resource "*" but the X-Ray actions, on function roles only', () => {
      // Prepare
      const functionRoles = new Set(stack.functions.map((fn) => logicalId(fn.role)));

      // Act
      const wildcards = synth.ofType('AWS::IAM::Policy').flatMap(([policyId, policy]) =>
        (policy.Properties.PolicyDocument as { Statement: PolicyStatement[] }).Statement.filter((s) =>
          resourcesOf(s).includes('*'),
        ).map((statement) => ({
          statement,
          roles: (policy.Properties.Roles as { Ref: string }[]).map((r) => r.Ref),
          policyId,
        })),
      );

      // Assess
      expect(wildcards.length).toBe(stack.functions.length);
      for (const { statement, roles, policyId } of wildcards) {
        expect(statement, policyId).toEqual(XRAY_STATEMENT);
        expect(
          roles.every((role) => functionRoles.has(role)),
          policyId,
        ).toBe(true);
      }
    });

    it('has no wildcard action, and wildcards inside ARNs only for objects under t/ and the schedule group', () => {
      // Act
      const statements = synth
        .ofType('AWS::IAM::Policy')
        .flatMap(
          ([, policy]) => (policy.Properties.PolicyDocument as { Statement: PolicyStatement[] }).Statement,
        );
      const patterns = new Set(
        statements
          .flatMap(resourcesOf)
          .filter((resource) => resource !== '*' && JSON.stringify(resource).includes('*'))
          .map((resource) => JSON.stringify(resource)),
      );

      // Assess
      expect(statements.flatMap(actionsOf).filter((action) => action.includes('*'))).toEqual([]);
      expect([...patterns].sort()).toEqual(
        [tenantObjects(), SCHEDULES_ARN].map((pattern) => JSON.stringify(pattern)).sort(),
      );
    });

    it('of a function starts from its own log group and X-Ray, and has no managed policy', () => {
      for (const fn of stack.functions) {
        // Act
        const statements = synth.statementsOf(fn); // asserts no ManagedPolicyArns

        // Assess
        expect(statements, fn.node.path).toContainEqual({
          Effect: 'Allow',
          Action: LOGS_ACTIONS,
          Resource: getAtt(fn.logGroup, 'Arn'),
        });
        expect(statements, fn.node.path).toContainEqual(XRAY_STATEMENT);
        expect(synth.of(fn.role, 'AWS::IAM::Role').Properties.AssumeRolePolicyDocument).toEqual({
          Version: '2012-10-17',
          Statement: [
            { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
          ],
        });
      }
    });

    it('an operation function uses the KMS key only as its resources declare, each action for its one purpose', () => {
      const keyId = logicalId(stack.secretsKey.key);
      for (const operation of operations) {
        // Prepare
        const declared = operation.resources ?? [];
        const expected = [
          ...(declared.includes('secrets-encrypt') ? [encryptWebhookSecrets()] : []),
          ...(declared.includes('oauth-tokens-encrypt') ? [keyUse('kms:Encrypt', 'oauth-token')] : []),
          ...(declared.includes('oauth-tokens-decrypt') ? [keyUse('kms:Decrypt', 'oauth-token')] : []),
        ];
        const fn = stack.api.operationFunctions.get(operation.id) as ServiceFunction;

        // Act
        const keyStatements = synth.statementsOf(fn).filter((s) => JSON.stringify(s).includes(keyId));

        // Assess
        expect(normalizedAll(keyStatements), operation.id).toEqual(normalizedAll(expected));
        expect(synth.environmentOf(fn).SECRETS_KEY_ARN, operation.id).toEqual(
          expected.length > 0 ? getAtt(stack.secretsKey.key, 'Arn') : undefined,
        );
      }
      expect(JSON.stringify(synth.statementsOf(stack.api.fallbackFunction))).not.toContain(keyId);
    });
  });

  describe('operations', () => {
    it.each(operations.filter((o) => o.auth !== 'none').map((o) => [o.id, o] as const))(
      '%s: the main and rate-limits tables, plus exactly what its `resources` declare',
      (_id, operation) => {
        // Prepare
        const declared = operation.resources ?? [];
        const tables = [
          MAIN_TABLE,
          RATE_LIMITS_TABLE,
          ...(declared.includes('idempotency-table') ? [IDEMPOTENCY_TABLE] : []),
        ];
        const objectActions = declared.flatMap((resource) => OBJECT_ACTION_OF[resource] ?? []);

        // Act
        const grants = synth.grantsOf(
          synth.functionBehindRoute(`${operation.method} ${operation.path}`).resource,
        );

        // Assess
        expect(normalizedAll(grants)).toEqual(
          normalizedAll([
            data(...tables),
            ...(objectActions.length > 0 ? [objects(...objectActions)] : []),
            ...(declared.includes('secrets-encrypt') ? [encryptWebhookSecrets()] : []),
            ...(declared.includes('network-apps') ? [readAppSecrets()] : []),
            ...(declared.includes('oauth-tokens-encrypt') ? [keyUse('kms:Encrypt', 'oauth-token')] : []),
            ...(declared.includes('oauth-tokens-decrypt') ? [keyUse('kms:Decrypt', 'oauth-token')] : []),
          ]),
        );
      },
    );

    it('createPost may use the idempotency table; listPosts may not', () => {
      // Prepare
      const idempotency = JSON.stringify(tableArn(IDEMPOTENCY_TABLE));

      // Act
      const createPost = JSON.stringify(synth.statementsOf(operationFunction('createPost')));
      const listPosts = JSON.stringify(synth.statementsOf(operationFunction('listPosts')));

      // Assess
      expect(createPost).toContain(idempotency);
      expect(listPosts).not.toContain(idempotency);
    });

    it('createUploadUrl may put objects under <bucket>/t/* only; getPost has no S3 action at all', () => {
      // Act
      const upload = synth
        .statementsOf(operationFunction('createUploadUrl'))
        .filter((statement) => actionsOf(statement).some((action) => action.startsWith('s3:')));
      const getPost = synth.statementsOf(operationFunction('getPost'));

      // Assess
      expect(normalizedAll(upload)).toEqual(normalizedAll([objects('s3:PutObject')]));
      expect(hasS3(getPost)).toBe(false);
    });

    it('createWebhook may encrypt webhook secrets and is told the key; getWebhook may not', () => {
      // Act
      const create = operationFunction('createWebhook');
      const read = operationFunction('getWebhook');

      // Assess
      expect(synth.statementsOf(create)).toContainEqual(encryptWebhookSecrets());
      expect(synth.environmentOf(create).SECRETS_KEY_ARN).toEqual(getAtt(stack.secretsKey.key, 'Arn'));
      expect(
        synth
          .statementsOf(read)
          .flatMap(actionsOf)
          .filter((a) => a.startsWith('kms:')),
      ).toEqual([]);
      expect(synth.environmentOf(read).SECRETS_KEY_ARN).toBeUndefined();
    });

    it('operations without an API key and without resources (the OpenAPI document) and the fallback get nothing but logs and X-Ray', () => {
      // Prepare
      const publicOperations = operations.filter(
        (o) => o.auth === 'none' && (o.resources ?? []).length === 0,
      );
      expect(publicOperations.map((o) => o.id)).toContain('getOpenApi');

      // Act
      const functions = [
        ...publicOperations.map((o) => synth.functionBehindRoute(`${o.method} ${o.path}`).resource),
        synth.functionBehindRoute('$default').resource,
      ];

      // Assess
      for (const fn of functions) expect(synth.grantsOf(fn)).toEqual([]);
    });
  });

  describe('workers', () => {
    it('outbox: reads the main stream, sends to the delivery, events, import and webhook-delivery queues, manages the group schedules', () => {
      // Prepare
      const { queues, scheduling } = stack;

      // Act
      const grants = synth.grantsOf(stack.workers.outbox);

      // Assess
      expect(normalizedAll(grants)).toEqual(
        normalizedAll([
          {
            Effect: 'Allow',
            Action: [
              'dynamodb:DescribeStream',
              'dynamodb:GetRecords',
              'dynamodb:GetShardIterator',
              'dynamodb:ListStreams',
            ],
            Resource: getAtt(stack.data.tableOf(MAIN_TABLE), 'StreamArn'),
          },
          send(
            queues.delivery.queue,
            queues.events.queue,
            queues.mediaImport.queue,
            queues.webhookDelivery.queue,
          ),
          // The stream's on-failure destination (CDK's SqsDlq grant).
          {
            Effect: 'Allow',
            Action: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
            Resource: queueArn(queues.outboxFailures),
          },
          {
            Effect: 'Allow',
            Action: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:UpdateSchedule'],
            Resource: SCHEDULES_ARN,
          },
          {
            Effect: 'Allow',
            Action: 'iam:PassRole',
            Resource: getAtt(scheduling.role, 'Arn'),
            Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
          },
        ]),
      );
      expect(JSON.stringify(grants)).not.toContain(JSON.stringify(tableArn(MAIN_TABLE)));
    });

    it('delivery worker: main and rate-limits tables, its queue (and sends back to it), objects under t/, the app secrets, tokens both ways', () => {
      // Act
      const grants = synth.grantsOf(stack.workers.deliveryWorker);

      // Assess
      expect(normalizedAll(grants)).toEqual(
        normalizedAll([
          consume(stack.queues.delivery.queue),
          data(MAIN_TABLE, RATE_LIMITS_TABLE),
          send(stack.queues.delivery.queue),
          objects('s3:GetObject', 's3:PutObject'),
          ...callsNetworks(),
        ]),
      );
    });

    it('reconciler: the main table (gsi2 among its indexes), sending to the delivery queue, and what a look-up on the networks needs', () => {
      expect(normalizedAll(synth.grantsOf(stack.workers.reconciler))).toEqual(
        normalizedAll([data(MAIN_TABLE), send(stack.queues.delivery.queue), ...callsNetworks()]),
      );
      expect(JSON.stringify(data(MAIN_TABLE))).toContain('/index/gsi2');
    });

    it('token refresher: the main table, the app secrets, tokens both ways; no queue, no object', () => {
      expect(normalizedAll(synth.grantsOf(stack.workers.tokenRefresher))).toEqual(
        normalizedAll([data(MAIN_TABLE), ...callsNetworks()]),
      );
    });

    it('media importer: its queue, the main table, PutObject under t/', () => {
      expect(normalizedAll(synth.grantsOf(stack.workers.mediaImporter))).toEqual(
        normalizedAll([consume(stack.queues.mediaImport.queue), data(MAIN_TABLE), objects('s3:PutObject')]),
      );
    });

    it('webhook fan-out: the events queue, the main table, sending to the webhook-delivery queue; no key', () => {
      expect(normalizedAll(synth.grantsOf(stack.workers.webhookFanOut))).toEqual(
        normalizedAll([
          consume(stack.queues.events.queue),
          data(MAIN_TABLE),
          send(stack.queues.webhookDelivery.queue),
        ]),
      );
      expect(synth.environmentOf(stack.workers.webhookFanOut).SECRETS_KEY_ARN).toBeUndefined();
    });

    it('webhook dispatcher: its queue (and sends back to it), the main table, kms:Decrypt of webhook signing secrets only', () => {
      // Act
      const grants = synth.grantsOf(stack.workers.webhookDispatcher);

      // Assess
      expect(normalizedAll(grants)).toEqual(
        normalizedAll([
          consume(stack.queues.webhookDelivery.queue),
          data(MAIN_TABLE),
          send(stack.queues.webhookDelivery.queue),
          {
            Effect: 'Allow',
            Action: 'kms:Decrypt',
            Resource: getAtt(stack.secretsKey.key, 'Arn'),
            Condition: { StringEquals: { 'kms:EncryptionContext:purpose': 'webhook-signing-secret' } },
          },
        ]),
      );
      expect(synth.environmentOf(stack.workers.webhookDispatcher).SECRETS_KEY_ARN).toEqual(
        getAtt(stack.secretsKey.key, 'Arn'),
      );
    });

    it('no worker but the dispatcher and those that call the networks may use the KMS key, or is told it', () => {
      const keyId = logicalId(stack.secretsKey.key);
      const { webhookDispatcher, deliveryWorker, reconciler, tokenRefresher } = stack.workers;
      const users = [webhookDispatcher, deliveryWorker, reconciler, tokenRefresher];
      for (const fn of stack.workers.functions.filter((f) => !users.includes(f))) {
        expect(JSON.stringify(synth.statementsOf(fn)), fn.node.path).not.toContain(keyId);
        expect(synth.environmentOf(fn).SECRETS_KEY_ARN, fn.node.path).toBeUndefined();
      }
    });

    it('media uploaded: the main table, GetObject under t/ (HeadObject needs it)', () => {
      expect(normalizedAll(synth.grantsOf(stack.workers.mediaUploaded))).toEqual(
        normalizedAll([data(MAIN_TABLE), objects('s3:GetObject')]),
      );
    });
  });

  describe('the role Scheduler assumes', () => {
    it('is trusted by scheduler.amazonaws.com for this account only', () => {
      // Act
      const role = synth.of(stack.scheduling.role, 'AWS::IAM::Role');

      // Assess
      expect(role.Properties.AssumeRolePolicyDocument).toEqual({
        Version: '2012-10-17',
        Statement: [
          {
            Action: 'sts:AssumeRole',
            Effect: 'Allow',
            Principal: { Service: 'scheduler.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          },
        ],
      });
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    });

    it('may send to the delivery queue and its dead-letter queue, and nothing else', () => {
      // Act
      const statements = synth.statementsOfRole(logicalId(stack.scheduling.role));

      // Assess
      expect(normalizedAll(statements)).toEqual(
        normalizedAll([send(stack.queues.delivery.queue, stack.queues.delivery.deadLetterQueue)]),
      );
    });
  });

  describe('invocation permissions', () => {
    it('S3 may invoke media-uploaded for the media bucket of this account only', () => {
      // Act
      const permissions = synth
        .ofType('AWS::Lambda::Permission')
        .filter(([, p]) => p.Properties.Principal === 's3.amazonaws.com');

      // Assess
      expect(permissions.map(([, p]) => p.Properties)).toEqual([
        {
          Action: 'lambda:InvokeFunction',
          FunctionName: getAtt(stack.workers.mediaUploaded.function, 'Arn'),
          Principal: 's3.amazonaws.com',
          SourceAccount: { Ref: 'AWS::AccountId' },
          SourceArn: getAtt(stack.media.bucket, 'Arn'),
        },
      ]);
    });

    it('EventBridge may invoke the reconciler and the token refresher, each from its own rule only', () => {
      // Act
      const permissions = synth
        .ofType('AWS::Lambda::Permission')
        .filter(([, p]) => p.Properties.Principal === 'events.amazonaws.com');

      // Assess
      expect(permissions.map(([, p]) => p.Properties)).toEqual([
        {
          Action: 'lambda:InvokeFunction',
          FunctionName: getAtt(stack.workers.reconciler.function, 'Arn'),
          Principal: 'events.amazonaws.com',
          SourceArn: getAtt(stack.workers.reconcilerRule, 'Arn'),
        },
        {
          Action: 'lambda:InvokeFunction',
          FunctionName: getAtt(stack.workers.tokenRefresher.function, 'Arn'),
          Principal: 'events.amazonaws.com',
          SourceArn: getAtt(stack.workers.tokenRefresherRule, 'Arn'),
        },
      ]);
    });
  });
});
