import { CfnOutput, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import * as cxapi from 'aws-cdk-lib/cx-api';
import type { Construct } from 'constructs';
import { TABLES, type TableDefinition } from '../../shared/adapters/dynamodb/tables.js';
import { SERVICE_NAME } from '../../shared/adapters/observability/powertools-logger.js';
import type { DailyQuotaOverrides } from '../../shared/domain/account-quotas.js';
import type { Operation } from '../../shared/http/operation.js';
import { platformsListed } from '../../shared/networks/definitions.js';
import { operations as registry } from '../../shared/operations/registry.js';
import { NETWORK_APPS, type NetworkEndpointName } from '../../shared/runtime/network-config.js';
import { dailyQuotaOverridesEnv } from '../../shared/runtime/quota-settings.js';
import { ServiceAlarms } from '../constructs/alarms.js';
import { DashboardEndpoint } from '../constructs/dashboard-endpoint.js';
import type { MultiOperationEndpointProps } from '../constructs/endpoint-props.js';
import { type ApiThrottle, type CustomDomain, ServiceHttpApi } from '../constructs/http-api.js';
import { McpEndpoint } from '../constructs/mcp-endpoint.js';
import { MediaStorage } from '../constructs/media-storage.js';
import { appIdPart, appSecretName, NetworkApps } from '../constructs/network-apps.js';
import { PostScheduling } from '../constructs/post-scheduling.js';
import { ServiceQueues } from '../constructs/queues.js';
import { SecretsKey } from '../constructs/secrets-key.js';
import type { ServiceFunction } from '../constructs/service-function.js';
import { DataTables } from '../constructs/tables.js';
import { ServiceWorkers } from '../constructs/workers.js';
import { defaultNetworkSecretsPrefix } from '../context.js';

export interface ServiceStackProps extends StackProps {
  stage: string;
  /** @default the registry (tests may pass another list) */
  operations?: readonly Operation[];
  /** Origins allowed to PUT to presigned upload URLs from a browser. @default ['*'] */
  corsOrigins?: readonly string[];
  /** Subscribed to the alarm topic by email. @default none */
  alarmEmail?: string;
  /** @default none: the API answers on its execute-api address only */
  customDomain?: CustomDomain;
  /** API Gateway's throttle on the whole API. @default DEFAULT_API_THROTTLE */
  apiThrottle?: ApiThrottle;
  /** Name prefix of the networks' app secrets. @default `social-publishing/<stage>/networks/` */
  networkSecretsPrefix?: string;
  /** Network addresses other than the real hosts (X_API_URL…). @default none: the real hosts */
  networkEndpoints?: Readonly<Partial<Record<NetworkEndpointName, string>>>;
  /** The daily quotas an operator set (each network's `quotaSettings`). @default the networks' own */
  dailyQuotaOverrides?: DailyQuotaOverrides;
  /** Every function's POWERTOOLS_LOG_LEVEL. @default INFO */
  logLevel?: string;
  /** Reserved concurrency of the MCP function, the one cap on its Function URL. @default none */
  mcpReservedConcurrency?: number;
}

/** `rate-limits` → `RateLimitsTableName`: the output keys the admin CLI reads. */
export function tableOutputKey(definition: TableDefinition): string {
  const pascal = definition.id
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
  return `${pascal}TableName`;
}

/** The schedule group of a stage: one per stage, so stages in one account never share schedules. */
export function scheduleGroupName(stage: string): string {
  return `social-publishing-${stage}`;
}

/**
 * Behaviours of newer CDK versions this stack relies on, switched on here (for this stack only)
 * because an app without them in its cdk.json gets the old ones:
 * - server access logs are delivered under a bucket policy for the logging service, not an ACL
 *   (ACLs stay disabled on every bucket).
 */
const FEATURE_FLAGS = [cxapi.S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY];

/**
 * The whole service in one stack, in parts kept apart:
 * - state, retained when the stack goes: `Data` (the tables), `Media` (the media bucket and its
 *   access logs), `Secrets` (the KMS key for tokens and webhook secrets), `Networks` (one Secrets
 *   Manager secret per network app, which the operator fills in);
 * - plumbing: `Queues` (each with its dead-letter queue), `Scheduling` (Scheduler's group and role);
 * - code, replaceable at will: `Api` (a function and a route per operation), `Mcp` (the MCP server,
 *   at `/mcp` on the API and at its own Function URL), `Dashboard` (the people's pages, at
 *   `/dashboard` on the API) and `Workers` (outbox, delivery worker,
 *   reconciler, media importer, upload notifications, webhook fan-out and dispatcher, token
 *   refresher), each function
 *   with its own role granted exactly what its code path uses;
 * - `Alarms`: every dead-letter queue and every function, the share of failed posts and the age of
 *   the oldest message of the delivery, events and webhook-delivery queues, on one SNS topic.
 */
export class ServiceStack extends Stack {
  readonly operations: readonly Operation[];
  readonly data: DataTables;
  readonly media: MediaStorage;
  readonly secretsKey: SecretsKey;
  readonly networkApps: NetworkApps;
  readonly queues: ServiceQueues;
  readonly scheduling: PostScheduling;
  readonly api: ServiceHttpApi;
  readonly mcp: McpEndpoint;
  readonly dashboard: DashboardEndpoint;
  readonly workers: ServiceWorkers;
  readonly alarms: ServiceAlarms;
  readonly networkSecretsPrefix: string;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    for (const flag of FEATURE_FLAGS) this.node.setContext(flag, true);
    this.operations = props.operations ?? registry;
    this.networkSecretsPrefix = props.networkSecretsPrefix ?? defaultNetworkSecretsPrefix(props.stage);
    Tags.of(this).add('Service', 'social-publishing');
    Tags.of(this).add('Stage', props.stage);

    this.data = new DataTables(this, 'Data', { definitions: TABLES });
    this.media = new MediaStorage(this, 'Media', { corsOrigins: props.corsOrigins ?? ['*'] });
    this.secretsKey = new SecretsKey(this, 'Secrets', { stage: props.stage });
    this.networkApps = new NetworkApps(this, 'Networks', {
      secretsPrefix: this.networkSecretsPrefix,
      ...(props.networkEndpoints && { endpoints: props.networkEndpoints }),
    });
    this.queues = new ServiceQueues(this, 'Queues');
    this.scheduling = new PostScheduling(this, 'Scheduling', {
      groupName: scheduleGroupName(props.stage),
      targetQueue: this.queues.delivery.queue,
      // What Scheduler could not send is a lost delivery message: it waits beside the worker's.
      deadLetterQueue: this.queues.delivery.deadLetterQueue,
    });

    // What shared/runtime/config.ts requires of every function that loads it.
    const environment = {
      ...this.data.environment(),
      MEDIA_BUCKET: this.media.bucket.bucketName,
      POWERTOOLS_LOG_LEVEL: props.logLevel ?? 'INFO',
      ...(props.dailyQuotaOverrides && dailyQuotaOverridesEnv(props.dailyQuotaOverrides)),
    };
    this.api = new ServiceHttpApi(this, 'Api', {
      operations: this.operations,
      data: this.data,
      media: this.media,
      secretsKey: this.secretsKey.key,
      environment,
      networkApps: this.networkApps,
      ...(props.customDomain && { customDomain: props.customDomain }),
      ...(props.apiThrottle && { throttle: props.apiThrottle }),
    });
    const endpointProps: MultiOperationEndpointProps = {
      operations: this.operations,
      httpApi: this.api.httpApi,
      data: this.data,
      media: this.media,
      secretsKey: this.secretsKey.key,
      environment,
      networkApps: this.networkApps,
      publicBaseUrl: this.api.publicBaseUrl,
    };
    this.mcp = new McpEndpoint(this, 'Mcp', {
      ...endpointProps,
      ...(props.mcpReservedConcurrency !== undefined && {
        reservedConcurrency: props.mcpReservedConcurrency,
      }),
    });
    this.dashboard = new DashboardEndpoint(this, 'Dashboard', endpointProps);
    // The dashboard's composer PUTs uploads from the browser to the bucket: its own origins (the
    // execute-api address, and the custom domain when there is one) may, whatever `corsOrigins` says.
    this.media.allowBrowserUploadsFrom(this.api.httpApi.apiEndpoint);
    this.media.allowBrowserUploadsFrom(this.api.publicBaseUrl);
    this.workers = new ServiceWorkers(this, 'Workers', {
      data: this.data,
      queues: this.queues,
      scheduling: this.scheduling,
      media: this.media,
      environment,
      networkApps: this.networkApps,
      secretsKey: this.secretsKey.key,
    });

    this.alarms = new ServiceAlarms(this, 'Alarms', {
      stage: props.stage,
      ...(props.alarmEmail && { email: props.alarmEmail }),
    });
    for (const fn of this.functions) this.alarms.watchFunction(fn.node.id, fn);
    for (const { name, queue } of this.queues.deadLetterQueues) this.alarms.watchDeadLetterQueue(name, queue);
    this.alarms.watchPostFailureRatio(SERVICE_NAME);
    this.alarms.watchOldestMessage('Delivery', this.queues.delivery.queue);
    // Webhook retries hop through SQS 15 minutes at most at a time, so older means a stalled consumer.
    this.alarms.watchOldestMessage('Events', this.queues.events.queue);
    this.alarms.watchOldestMessage('WebhookDelivery', this.queues.webhookDelivery.queue);

    this.addOutputs(props);
  }

  /** Every function of the service (CDK's own helper functions aside). */
  get functions(): readonly ServiceFunction[] {
    return [...this.api.functions, this.mcp.server, this.dashboard.server, ...this.workers.functions];
  }

  private addOutputs(props: ServiceStackProps): void {
    for (const { definition, table } of this.data.tables) {
      new CfnOutput(this, tableOutputKey(definition), {
        value: table.tableName,
        description: `DynamoDB table "${definition.id}" (functions read it from ${definition.envVar})`,
      });
    }
    new CfnOutput(this, 'ApiUrl', {
      value: this.api.httpApi.apiEndpoint,
      description: 'Base URL of the HTTP API (no trailing slash)',
    });
    new CfnOutput(this, 'McpUrl', {
      value: this.mcp.apiUrl,
      description: 'MCP endpoint on the HTTP API: ApiUrl + /mcp (https://<custom domain>/mcp works too)',
    });
    new CfnOutput(this, 'McpFunctionUrl', {
      value: this.mcp.functionUrl.url,
      description:
        "MCP endpoint at the MCP function's own URL (ends in /; API Gateway's throttle does not apply)",
    });
    new CfnOutput(this, 'DashboardUrl', {
      value: this.dashboard.url,
      description:
        'The dashboard, on the public base URL (the custom domain when there is one): sign in here (docs/deploy.md)',
    });
    new CfnOutput(this, 'MediaBucketName', {
      value: this.media.bucket.bucketName,
      description: 'The media bucket (objects under t/<tenantId>/)',
    });
    new CfnOutput(this, 'DeliveryQueueUrl', {
      value: this.queues.delivery.queue.queueUrl,
      description: 'The delivery queue (one message per post due for delivery)',
    });
    new CfnOutput(this, 'EventsQueueUrl', {
      value: this.queues.events.queue.queueUrl,
      description: 'The events queue (service events on their way to webhooks)',
    });
    new CfnOutput(this, 'ScheduleGroupName', {
      value: this.scheduling.groupName,
      description: 'The EventBridge Scheduler group of post schedules',
    });
    new CfnOutput(this, 'KmsKeyArn', {
      value: this.secretsKey.key.keyArn,
      description:
        'KMS key for OAuth tokens and webhook secrets (encryption context: tenantId, workspaceId, recordId)',
    });
    for (const app of NETWORK_APPS) {
      new CfnOutput(this, `${appIdPart(app)}AppSecretName`, {
        value: appSecretName(this.networkSecretsPrefix, app),
        description: `Secrets Manager secret of the ${app} app: put {"clientId","clientSecret"} in it (docs/deploy.md)`,
      });
    }
    new CfnOutput(this, 'OAuthCallbackUrl', {
      value: `${this.api.publicBaseUrl}/v1/oauth/{platform}/callback`,
      description: `The redirect URL to register with each network's app, {platform} being ${platformsListed()}`,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarms.topic.topicArn,
      description: 'SNS topic of every alarm (subscribe to be told)',
    });
    if (this.api.domainName && props.customDomain) {
      new CfnOutput(this, 'CustomDomainTarget', {
        value: this.api.domainName.regionalDomainName,
        description: `Point ${props.customDomain.domainName} here (CNAME, or an alias record)`,
      });
      new CfnOutput(this, 'CustomDomainHostedZoneId', {
        value: this.api.domainName.regionalHostedZoneId,
        description: 'Hosted zone id of the custom domain target (for a Route 53 alias record)',
      });
    }
  }
}
