import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServiceFunction } from '../../infra/constructs/service-function.js';
import { WORKER_TIMEOUTS } from '../../infra/constructs/timeouts.js';
import { DELIVERY_READY_BATCHES } from '../../infra/delivery-concurrency.js';
import type { ServiceStack } from '../../infra/stacks/service-stack.js';
import { MAIN_TABLE, TABLES } from '../../shared/adapters/dynamodb/tables.js';
import { WEBHOOK_TIMEOUT_MS } from '../../shared/adapters/http/webhook-sender.js';
import { loadConfig } from '../../shared/runtime/config.js';
import { loadDeliveryConfig } from '../../shared/runtime/delivery-config.js';
import { REFRESH_TIMEOUT_MS } from '../../shared/services/accounts/account-credentials.js';
import { CONNECTOR_TIMEOUT_MS, LOOKUP_TIMEOUT_MS } from '../../shared/services/delivery/deliver-post.js';
import {
  buildStack,
  type CfnResource,
  getAtt,
  type Json,
  logicalId,
  processEnvironment,
  ref,
  SynthesizedStack,
} from './stack-fixture.js';
import { SYNTH_TIMEOUT_MS } from './synth-timeout.js';

const TLS_ONLY = { Bool: { 'aws:SecureTransport': 'false' } };

describe('queues, triggers, scheduling, storage, key and alarms', { timeout: SYNTH_TIMEOUT_MS }, () => {
  let stack: ServiceStack;
  let synth: SynthesizedStack;

  beforeAll(() => {
    stack = buildStack({ bundle: false });
    synth = new SynthesizedStack(stack);
  });

  const queue = (q: sqs.IQueue) => synth.of(q, 'AWS::SQS::Queue');

  describe('queues', () => {
    it('are the four work queues, each with a dead-letter queue of its own, and the outbox failure queue', () => {
      // Act
      const queueIds = synth.ofType('AWS::SQS::Queue').map(([id]) => id);

      // Assess
      const expected = [
        ...stack.queues.workQueues.flatMap((work) => [work.queue, work.deadLetterQueue]),
        stack.queues.outboxFailures,
      ].map(logicalId);
      expect(queueIds.sort()).toEqual(expected.sort());
      expect(new Set(expected).size).toBe(9);
    });

    it.each(['delivery', 'events', 'mediaImport', 'webhookDelivery'] as const)(
      '%s redrives to its own dead-letter queue after 5 receives',
      (name) => {
        // Act
        const work = stack.queues[name];

        // Assess
        expect(queue(work.queue).Properties.RedrivePolicy).toEqual({
          deadLetterTargetArn: getAtt(work.deadLetterQueue, 'Arn'),
          maxReceiveCount: 5,
        });
        expect(queue(work.deadLetterQueue).Properties.RedrivePolicy).toBeUndefined();
        expect(queue(work.deadLetterQueue).Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
      },
    );

    it('every queue is encrypted (SQS-managed) and refuses requests without TLS', () => {
      for (const [id, q] of synth.ofType('AWS::SQS::Queue')) {
        // Act
        const policies = synth
          .ofType('AWS::SQS::QueuePolicy')
          .filter(([, p]) => JSON.stringify(p.Properties.Queues) === JSON.stringify([{ Ref: id }]));

        // Assess
        expect(q.Properties.SqsManagedSseEnabled, id).toBe(true);
        expect(policies, id).toHaveLength(1);
        const [[, policy]] = policies as [[string, CfnResource]];
        expect((policy.Properties.PolicyDocument as Json).Statement, id).toContainEqual({
          Action: 'sqs:*',
          Condition: TLS_ONLY,
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Resource: { 'Fn::GetAtt': [id, 'Arn'] },
        });
      }
    });

    it('visibility timeouts are six times the timeout of the function that consumes each queue', () => {
      // Prepare
      const consumers: [sqs.IQueue, number][] = [
        [
          stack.queues.delivery.queue,
          synth.functionOf(stack.workers.deliveryWorker).Properties.Timeout as number,
        ],
        [
          stack.queues.mediaImport.queue,
          synth.functionOf(stack.workers.mediaImporter).Properties.Timeout as number,
        ],
        [
          stack.queues.events.queue,
          synth.functionOf(stack.workers.webhookFanOut).Properties.Timeout as number,
        ],
        [
          stack.queues.webhookDelivery.queue,
          synth.functionOf(stack.workers.webhookDispatcher).Properties.Timeout as number,
        ],
      ];

      for (const [q, consumerTimeout] of consumers) {
        // Act
        const visibility = queue(q).Properties.VisibilityTimeout;

        // Assess
        expect(consumerTimeout).toBeGreaterThan(0);
        expect(visibility, logicalId(q)).toBe(6 * consumerTimeout);
      }
    });
  });

  describe('triggers', () => {
    const mappings = () => synth.ofType('AWS::Lambda::EventSourceMapping').map(([, m]) => m);
    const mappingOf = (fn: ServiceFunction) =>
      mappings().filter(
        (m) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify(ref(fn.function)),
      );

    it('every event source mapping reports partial batch failures', () => {
      expect(mappings()).toHaveLength(5);
      for (const mapping of mappings()) {
        expect(mapping.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
      }
    });

    it("the outbox reads the main table's stream from its oldest record, in order, retries 10 times, then sets the record aside; only the entities it acts on invoke it", () => {
      // Act
      const [mapping] = mappingOf(stack.workers.outbox) as [CfnResource];

      // Assess
      expect(mapping.Properties).toEqual({
        EventSourceArn: getAtt(stack.data.tableOf(MAIN_TABLE), 'StreamArn'),
        FunctionName: ref(stack.workers.outbox.function),
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 100,
        BisectBatchOnFunctionError: false,
        MaximumRetryAttempts: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        DestinationConfig: { OnFailure: { Destination: getAtt(stack.queues.outboxFailures, 'Arn') } },
        FilterCriteria: {
          Filters: [
            {
              Pattern: JSON.stringify({
                dynamodb: { NewImage: { entity: { S: ['post', 'media', 'webhookDelivery', 'account'] } } },
              }),
            },
          ],
        },
        Tags: expect.any(Array),
      });
    });

    it('the delivery worker takes the delivery queue 10 at a time; the importer the import queue one at a time', () => {
      // Act
      const [worker] = mappingOf(stack.workers.deliveryWorker) as [CfnResource];
      const [importer] = mappingOf(stack.workers.mediaImporter) as [CfnResource];

      // Assess
      expect(worker.Properties).toMatchObject({
        EventSourceArn: getAtt(stack.queues.delivery.queue, 'Arn'),
        BatchSize: 10,
      });
      expect(worker.Properties.MaximumBatchingWindowInSeconds).toBeUndefined(); // no added latency
      // Pollers kept ready: a burst starts 30 batches at once, as the local host's default.
      expect(worker.Properties.ProvisionedPollerConfig).toEqual({ MinimumPollers: 3 });
      expect(DELIVERY_READY_BATCHES).toBe(30);
      expect(importer.Properties).toMatchObject({
        EventSourceArn: getAtt(stack.queues.mediaImport.queue, 'Arn'),
        BatchSize: 1,
      });
    });

    it('the webhook fan-out takes the events queue and the dispatcher the webhook-delivery queue, 10 at a time, without a batching window', () => {
      // Act
      const [fanOut] = mappingOf(stack.workers.webhookFanOut) as [CfnResource];
      const [dispatcher] = mappingOf(stack.workers.webhookDispatcher) as [CfnResource];

      // Assess
      expect(mappingOf(stack.workers.webhookFanOut)).toHaveLength(1);
      expect(mappingOf(stack.workers.webhookDispatcher)).toHaveLength(1);
      expect(fanOut.Properties).toMatchObject({
        EventSourceArn: getAtt(stack.queues.events.queue, 'Arn'),
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      expect(dispatcher.Properties).toMatchObject({
        EventSourceArn: getAtt(stack.queues.webhookDelivery.queue, 'Arn'),
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      for (const mapping of [fanOut, dispatcher]) {
        expect(mapping.Properties.MaximumBatchingWindowInSeconds).toBeUndefined();
      }
    });

    it('the dispatcher outlasts an attempt (5 s) with room for the calls around it; both know the webhook queue', () => {
      // Act
      const timeout = synth.functionOf(stack.workers.webhookDispatcher).Properties.Timeout as number;

      // Assess
      expect(timeout).toBe(WORKER_TIMEOUTS.webhookDispatcher.toSeconds());
      expect(timeout * 1000).toBeGreaterThan(2 * WEBHOOK_TIMEOUT_MS);
      for (const fn of [stack.workers.webhookFanOut, stack.workers.webhookDispatcher, stack.workers.outbox]) {
        expect(synth.environmentOf(fn).WEBHOOK_QUEUE_URL, fn.node.path).toEqual(
          ref(stack.queues.webhookDelivery.queue),
        );
      }
    });

    it('the worker outlasts two refreshes, two publishes and the look-up after them', () => {
      // Act
      const timeout = synth.functionOf(stack.workers.deliveryWorker).Properties.Timeout as number;

      // Assess
      expect(timeout).toBe(180);
      expect(timeout * 1000).toBeGreaterThan(
        2 * REFRESH_TIMEOUT_MS + 2 * CONNECTOR_TIMEOUT_MS + LOOKUP_TIMEOUT_MS,
      );
    });

    it('the reconciler runs every minute, and a failed run is not retried (the next one comes anyway)', () => {
      // Act
      const rule = synth.of(stack.workers.reconcilerRule, 'AWS::Events::Rule');
      const [[, invokeConfig]] = synth.ofType('AWS::Lambda::EventInvokeConfig') as [[string, CfnResource]];

      // Assess
      expect(rule.Properties.ScheduleExpression).toBe('rate(1 minute)');
      expect(rule.Properties.Targets).toEqual([
        {
          Arn: getAtt(stack.workers.reconciler.function, 'Arn'),
          Id: 'Target0',
          RetryPolicy: { MaximumRetryAttempts: 0 },
        },
      ]);
      expect(invokeConfig.Properties).toMatchObject({
        FunctionName: ref(stack.workers.reconciler.function),
        MaximumRetryAttempts: 0,
      });
    });

    it('every object created under t/ is reported to media-uploaded', () => {
      // Act
      const [[, notifications]] = synth.ofType('Custom::S3BucketNotifications') as [[string, CfnResource]];

      // Assess
      expect(notifications.Properties.BucketName).toEqual(ref(stack.media.bucket));
      expect(notifications.Properties.NotificationConfiguration).toEqual({
        LambdaFunctionConfigurations: [
          {
            Events: ['s3:ObjectCreated:*'],
            Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 't/' }] } },
            LambdaFunctionArn: getAtt(stack.workers.mediaUploaded.function, 'Arn'),
          },
        ],
      });
    });
  });

  describe('environment', () => {
    it('every operation function starts: its config loads, with the media bucket', () => {
      for (const fn of stack.api.operationFunctions.values()) {
        // Act
        const variables = synth.environmentOf(fn);
        const config = loadConfig(processEnvironment(variables));

        // Assess
        expect(variables.MEDIA_BUCKET, fn.node.path).toEqual(ref(stack.media.bucket));
        expect(config.mediaBucket, fn.node.path).toBeDefined();
      }
    });

    it.each([
      'outbox',
      'deliveryWorker',
      'reconciler',
      'mediaImporter',
      'webhookFanOut',
      'webhookDispatcher',
    ] as const)('%s starts: both its configs load, naming the real queues, group and role', (name) => {
      // Act
      const variables = synth.environmentOf(stack.workers[name]);
      const env = processEnvironment(variables);

      // Assess
      expect(() => loadConfig(env)).not.toThrow();
      expect(() => loadDeliveryConfig(env)).not.toThrow();
      expect(variables).toMatchObject({
        DELIVERY_QUEUE_URL: ref(stack.queues.delivery.queue),
        DELIVERY_QUEUE_ARN: getAtt(stack.queues.delivery.queue, 'Arn'),
        EVENTS_QUEUE_URL: ref(stack.queues.events.queue),
        IMPORT_QUEUE_URL: ref(stack.queues.mediaImport.queue),
        WEBHOOK_QUEUE_URL: ref(stack.queues.webhookDelivery.queue),
        SCHEDULE_GROUP: ref(stack.scheduling.group),
        SCHEDULER_ROLE_ARN: getAtt(stack.scheduling.role, 'Arn'),
        SCHEDULER_DLQ_ARN: getAtt(stack.queues.delivery.deadLetterQueue, 'Arn'),
        MEDIA_BUCKET: ref(stack.media.bucket),
        ...Object.fromEntries(TABLES.map((t) => [t.envVar, ref(stack.data.tableOf(t))])),
      });
    });

    it('media-uploaded starts (it loads the service config only)', () => {
      const variables = synth.environmentOf(stack.workers.mediaUploaded);
      expect(loadConfig(processEnvironment(variables)).mediaBucket).toBeDefined();
    });
  });

  describe('scheduling', () => {
    it('has one schedule group, named by the stage', () => {
      const groups = synth.ofType('AWS::Scheduler::ScheduleGroup');
      expect(groups.map(([, g]) => g.Properties.Name)).toEqual(['social-publishing-test']);
    });
  });

  describe('media bucket', () => {
    it('is private, encrypted, owner-enforced, unversioned and retained', () => {
      // Act
      const bucket = synth.of(stack.media.bucket, 'AWS::S3::Bucket');

      // Assess
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption).toEqual({
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      });
      expect(bucket.Properties.OwnershipControls).toEqual({
        Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }],
      });
      expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
      expect(bucket.Properties.BucketName).toBeUndefined();
      expect(bucket.DeletionPolicy).toBe('Retain');
      expect(bucket.UpdateReplacePolicy).toBe('Retain');
    });

    it('refuses requests without TLS 1.2 or later (bucket policy)', () => {
      // Act
      const [[, policy]] = synth
        .ofType('AWS::S3::BucketPolicy')
        .filter(
          ([, p]) => JSON.stringify(p.Properties.Bucket) === JSON.stringify(ref(stack.media.bucket)),
        ) as [[string, CfnResource]];

      // Assess
      const bucketAndObjects = [
        getAtt(stack.media.bucket, 'Arn'),
        { 'Fn::Join': ['', [getAtt(stack.media.bucket, 'Arn'), '/*']] },
      ];
      expect((policy.Properties.PolicyDocument as Json).Statement).toEqual([
        {
          Action: 's3:*',
          Condition: TLS_ONLY,
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Resource: bucketAndObjects,
        },
        {
          Action: 's3:*',
          Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } },
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Resource: bucketAndObjects,
        },
      ]);
    });

    it('lets browsers PUT to presigned URLs (any origin by default), and aborts multipart uploads after a day', () => {
      // Act
      const bucket = synth.of(stack.media.bucket, 'AWS::S3::Bucket');

      // Assess
      expect(bucket.Properties.CorsConfiguration).toEqual({
        CorsRules: [
          {
            AllowedHeaders: ['Content-Type', 'Content-Length'],
            AllowedMethods: ['PUT'],
            AllowedOrigins: ['*'],
            ExposedHeaders: ['ETag'],
            MaxAge: 3600,
          },
        ],
      });
      expect(bucket.Properties.LifecycleConfiguration).toEqual({
        Rules: [
          {
            Id: 'abort-incomplete-multipart-uploads',
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
            Status: 'Enabled',
          },
        ],
      });
    });

    it("takes its CORS origins from the context, and adds the dashboard's own origin (its composer uploads from the browser)", () => {
      // Act
      const custom = new SynthesizedStack(
        buildStack({ bundle: false, props: { corsOrigins: ['https://app.example.com'] } }),
      );

      // Assess
      const bucket = custom.of(custom.stack.media.bucket, 'AWS::S3::Bucket');
      const [rule] = (bucket.Properties.CorsConfiguration as { CorsRules: Array<Record<string, unknown>> })
        .CorsRules;
      expect(rule?.AllowedOrigins).toEqual([
        'https://app.example.com',
        custom.stack.resolve(custom.stack.api.httpApi.apiEndpoint),
      ]);
      expect(rule?.AllowedMethods).toEqual(['PUT']);
    });

    it('allows uploads from the custom domain too, where the dashboard has one', () => {
      // Act
      const custom = new SynthesizedStack(
        buildStack({
          bundle: false,
          props: {
            corsOrigins: ['https://app.example.com'],
            customDomain: {
              domainName: 'api.example.com',
              certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc-123',
            },
          },
        }),
      );

      // Assess
      const bucket = custom.of(custom.stack.media.bucket, 'AWS::S3::Bucket');
      const [rule] = (bucket.Properties.CorsConfiguration as { CorsRules: Array<Record<string, unknown>> })
        .CorsRules;
      expect(rule?.AllowedOrigins).toEqual([
        'https://app.example.com',
        custom.stack.resolve(custom.stack.api.httpApi.apiEndpoint),
        'https://api.example.com',
      ]);
    });

    it('logs server access to a private, retained bucket of its own, through a bucket policy for the logging service', () => {
      // Act
      const bucket = synth.of(stack.media.bucket, 'AWS::S3::Bucket');
      const logs = synth.of(stack.media.accessLogs, 'AWS::S3::Bucket');
      const [[, logsPolicy]] = synth
        .ofType('AWS::S3::BucketPolicy')
        .filter(
          ([, p]) => JSON.stringify(p.Properties.Bucket) === JSON.stringify(ref(stack.media.accessLogs)),
        ) as [[string, CfnResource]];

      // Assess
      expect(bucket.Properties.LoggingConfiguration).toEqual({
        DestinationBucketName: ref(stack.media.accessLogs),
        LogFilePrefix: 'media-bucket/',
      });
      expect(logs.Properties.PublicAccessBlockConfiguration).toEqual(
        bucket.Properties.PublicAccessBlockConfiguration,
      );
      expect(logs.Properties.OwnershipControls).toEqual({
        Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }],
      });
      expect(logs.DeletionPolicy).toBe('Retain');
      expect((logsPolicy.Properties.PolicyDocument as Json).Statement).toContainEqual({
        Action: 's3:PutObject',
        Condition: {
          ArnLike: { 'aws:SourceArn': getAtt(stack.media.bucket, 'Arn') },
          StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
        },
        Effect: 'Allow',
        Principal: { Service: 'logging.s3.amazonaws.com' },
        Resource: { 'Fn::Join': ['', [getAtt(stack.media.accessLogs, 'Arn'), '/media-bucket/*']] },
      });
    });
  });

  describe('KMS key', () => {
    it('rotates yearly and is retained', () => {
      // Act
      const key = synth.of(stack.secretsKey.key, 'AWS::KMS::Key');

      // Assess
      expect(key.Properties.EnableKeyRotation).toBe(true);
      expect(key.DeletionPolicy).toBe('Retain');
      expect(key.UpdateReplacePolicy).toBe('Retain');
      expect(synth.ofType('AWS::KMS::Key')).toHaveLength(1);
    });
  });

  describe('alarms', () => {
    const alarms = () => synth.ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const firesOnFirst = {
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      Period: 300,
      TreatMissingData: 'notBreaching',
    };

    it('one per dead-letter queue: any visible message', () => {
      for (const { name, queue: dlq } of stack.queues.deadLetterQueues) {
        // Act
        const matching = alarms().filter(
          (a) =>
            a.MetricName === 'ApproximateNumberOfMessagesVisible' &&
            JSON.stringify(a.Dimensions) ===
              JSON.stringify([{ Name: 'QueueName', Value: getAtt(dlq, 'QueueName') }]),
        );

        // Assess
        expect(matching, name).toHaveLength(1);
        expect(matching[0], name).toMatchObject({
          ...firesOnFirst,
          Namespace: 'AWS/SQS',
          Statistic: 'Maximum',
          AlarmActions: [ref(stack.alarms.topic)],
        });
      }
      expect(stack.queues.deadLetterQueues.map((d) => d.name).sort()).toEqual(
        ['Delivery', 'Events', 'MediaImport', 'OutboxFailures', 'WebhookDelivery'].sort(),
      );
    });

    it('one per function: any error in five minutes', () => {
      for (const fn of stack.functions) {
        // Act
        const matching = alarms().filter(
          (a) =>
            a.MetricName === 'Errors' &&
            JSON.stringify(a.Dimensions) ===
              JSON.stringify([{ Name: 'FunctionName', Value: ref(fn.function) }]),
        );

        // Assess
        expect(matching, fn.node.path).toHaveLength(1);
        expect(matching[0], fn.node.path).toMatchObject({
          ...firesOnFirst,
          Namespace: 'AWS/Lambda',
          Statistic: 'Sum',
          AlarmActions: [ref(stack.alarms.topic)],
        });
      }
      // Besides these: the failure ratio and the oldest message of three queues.
      expect(alarms()).toHaveLength(stack.functions.length + stack.queues.deadLetterQueues.length + 4);
    });

    it('one on the share of ended posts that failed, over the service-wide totals the worker emits', () => {
      // Act
      const [ratio, ...others] = alarms().filter((a) => a.Metrics !== undefined);

      // Assess
      expect(others).toEqual([]);
      expect(ratio).toMatchObject({
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: 0.2,
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
        AlarmActions: [ref(stack.alarms.topic)],
      });
      const queries = ratio?.Metrics as Json[];
      expect(queries).toContainEqual(
        expect.objectContaining({
          Expression: 'IF(published + failed >= 10, failed / (published + failed), 0)',
          ReturnData: true,
        }),
      );
      for (const [id, metricName] of [
        ['published', 'PostsPublished'],
        ['failed', 'PostsFailed'],
      ]) {
        expect(queries).toContainEqual({
          Id: id,
          ReturnData: false,
          MetricStat: {
            Metric: {
              Namespace: 'SocialPublishing',
              MetricName: metricName,
              Dimensions: [{ Name: 'service', Value: 'social-publishing-api' }],
            },
            Period: 300,
            Stat: 'Sum',
          },
        });
      }
    });

    it.each(['delivery', 'events', 'webhookDelivery'] as const)(
      'one on the age of the oldest %s message: older than any healthy hold (15 min) allows',
      (name) => {
        // Act
        const matching = alarms().filter(
          (a) =>
            a.MetricName === 'ApproximateAgeOfOldestMessage' &&
            JSON.stringify(a.Dimensions) ===
              JSON.stringify([{ Name: 'QueueName', Value: getAtt(stack.queues[name].queue, 'QueueName') }]),
        );

        // Assess
        expect(matching).toHaveLength(1);
        expect(matching[0]).toMatchObject({
          ...firesOnFirst,
          Threshold: 1200,
          Namespace: 'AWS/SQS',
          Statistic: 'Maximum',
          AlarmActions: [ref(stack.alarms.topic)],
        });
      },
    );

    it('go to a topic that CloudWatch of this account may publish to, over TLS only; email only when configured', () => {
      // Act
      const [[, topicPolicy]] = synth.ofType('AWS::SNS::TopicPolicy') as [[string, CfnResource]];
      const withEmail = new SynthesizedStack(
        buildStack({ bundle: false, props: { alarmEmail: 'ops@example.com' } }),
      );

      // Assess
      const statements = (topicPolicy.Properties.PolicyDocument as { Statement: Json[] }).Statement;
      expect(statements).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: TLS_ONLY, Action: 'sns:Publish' }),
      );
      expect(statements).toContainEqual(
        expect.objectContaining({
          Effect: 'Allow',
          Principal: { Service: 'cloudwatch.amazonaws.com' },
          Action: 'sns:Publish',
          Resource: ref(stack.alarms.topic),
        }),
      );
      expect(synth.ofType('AWS::SNS::Subscription')).toEqual([]);
      expect(withEmail.ofType('AWS::SNS::Subscription').map(([, s]) => s.Properties)).toEqual([
        { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: ref(withEmail.stack.alarms.topic) },
      ]);
    });
  });
});
