import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '../../shared/adapters/observability/powertools-metrics.js';
import type { ServiceFunction } from './service-function.js';

/** Every alarm looks at five-minute windows and fires on the first bad one. */
const PERIOD = Duration.minutes(5);
const FAILURE_RATIO = 0.2;
const MIN_ENDED_POSTS = 10;
const MAX_MESSAGE_AGE = Duration.minutes(20);

export interface ServiceAlarmsProps {
  stage: string;
  /** Subscribed to the topic by email (AWS sends a confirmation first); none when absent. */
  email?: string;
}

/**
 * What an operator must hear about, on one SNS topic: a message in any dead-letter queue (something
 * the service gave up on), any function error (a crash or a time-out; handled errors answer with an
 * envelope and do not count), a high share of failed posts, and delivery messages waiting too long.
 */
export class ServiceAlarms extends Construct {
  readonly topic: sns.Topic;
  private readonly action: SnsAction;
  private readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: `Social publishing alarms (${props.stage})`,
      enforceSSL: true,
    });
    // A topic policy replaces SNS's default one, so CloudWatch's right to publish is stated: alarms
    // of this account only.
    const stack = Stack.of(this);
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
          StringEquals: { 'aws:SourceAccount': stack.account },
        },
      }),
    );
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
    this.action = new SnsAction(this.topic);
  }

  /** Every alarm made so far. */
  get all(): readonly cloudwatch.Alarm[] {
    return this.alarms;
  }

  /** Fires when the queue holds any message (ApproximateNumberOfMessagesVisible > 0). */
  watchDeadLetterQueue(name: string, queue: sqs.IQueue): cloudwatch.Alarm {
    return this.add(`${name}DeadLetters`, {
      alarmDescription: `Messages in the dead-letter queue "${name}": the service gave up on them; inspect, fix, redrive.`,
      metric: queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
    });
  }

  /** Fires on any error of the function within five minutes (Errors > 0). */
  watchFunction(name: string, fn: ServiceFunction): cloudwatch.Alarm {
    return this.add(`${name}Errors`, {
      alarmDescription: `Errors (crashes or time-outs) of the function "${name}".`,
      metric: fn.function.metricErrors({ period: PERIOD, statistic: 'Sum' }),
    });
  }

  /**
   * Fires when more than FAILURE_RATIO of the posts that ended in a five-minute window failed, once
   * at least MIN_ENDED_POSTS ended (a single failure among three posts is no outage). Reads the
   * service-wide totals the delivery worker emits (PostsPublished, PostsFailed in EMF).
   */
  watchPostFailureRatio(serviceName: string): cloudwatch.Alarm {
    const total = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: serviceName },
        statistic: 'Sum',
        period: PERIOD,
      });
    return this.add(
      'PostFailureRatio',
      {
        alarmDescription: `More than ${FAILURE_RATIO * 100}% of posts failed in five minutes (at least ${MIN_ENDED_POSTS} ended): look at PostsFailed by platform and code, then the worker's logs.`,
        metric: new cloudwatch.MathExpression({
          expression: `IF(published + failed >= ${MIN_ENDED_POSTS}, failed / (published + failed), 0)`,
          usingMetrics: { published: total('PostsPublished'), failed: total('PostsFailed') },
          period: PERIOD,
          label: 'Share of ended posts that failed',
        }),
      },
      FAILURE_RATIO,
    );
  }

  /**
   * Fires when a delivery message has waited longer than any healthy one can: the worker holds
   * early posts for at most 15 minutes (SQS's delay ceiling), so older than MAX_MESSAGE_AGE means
   * the worker is not keeping up or not running.
   */
  watchOldestMessage(name: string, queue: sqs.IQueue): cloudwatch.Alarm {
    return this.add(
      `${name}OldestMessage`,
      {
        alarmDescription: `The oldest message in the "${name}" queue is over ${MAX_MESSAGE_AGE.toMinutes()} minutes old: deliveries are late. Check the worker's errors, throttles and logs.`,
        metric: queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
      },
      MAX_MESSAGE_AGE.toSeconds(),
    );
  }

  private add(
    id: string,
    props: Pick<cloudwatch.AlarmProps, 'alarmDescription' | 'metric'>,
    threshold = 0,
  ): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      ...props,
      threshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(this.action);
    this.alarms.push(alarm);
    return alarm;
  }
}
