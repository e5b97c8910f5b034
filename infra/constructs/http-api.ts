import { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  IDEMPOTENCY_TABLE,
  MAIN_TABLE,
  RATE_LIMITS_TABLE,
  type TableDefinition,
} from '../../shared/adapters/dynamodb/tables.js';
import type { Operation, OperationResource } from '../../shared/http/operation.js';
import type { SecretPurpose } from '../../shared/ports/secret-cipher.js';
import { writeOperationEntry } from '../operation-entries.js';
import type { MediaObjectAction, MediaStorage } from './media-storage.js';
import type { NetworkApps } from './network-apps.js';
import { ServiceFunction } from './service-function.js';
import type { DataTables } from './tables.js';

/**
 * API Gateway's throttle on the stage's routes (a token bucket for the whole API, not per caller):
 * `rateLimit` requests per second steady, `burstLimit` at once. Past it API Gateway answers 429
 * itself, before any function runs; it caps what a flood can cost, and a legitimate caller shares
 * the same bucket (docs/deploy.md, "Throttling and abuse").
 */
export interface ApiThrottle {
  rateLimit: number;
  burstLimit: number;
}

/**
 * Room for one tenant of the top plan at every per-tenant limit at once (about 460 requests a
 * second across the families), well under the account's regional quota (10,000 a second, shared
 * by every API of the account and region). Raise it with the context as tenants grow.
 */
export const DEFAULT_API_THROTTLE: ApiThrottle = { rateLimit: 500, burstLimit: 1000 };

/** A custom domain for the API: a regional ACM certificate of the same region must cover it. */
export interface CustomDomain {
  domainName: string;
  certificateArn: string;
}

export interface ServiceHttpApiProps {
  operations: readonly Operation[];
  data: DataTables;
  media: MediaStorage;
  /**
   * The key that encrypts stored secrets (SecretsKey): functions declaring `secrets-encrypt` may
   * encrypt with it, for webhook signing secrets only, and get its ARN as SECRETS_KEY_ARN.
   */
  secretsKey: kms.IKey;
  /** What every operation's config needs (shared/runtime/config.ts): the tables and MEDIA_BUCKET. */
  environment: Readonly<Record<string, string>>;
  /** The networks' app secrets and endpoints, for operations declaring `network-apps`. */
  networkApps: NetworkApps;
  /** Absent: the API answers on its execute-api address only. */
  customDomain?: CustomDomain;
  /** @default DEFAULT_API_THROTTLE */
  throttle?: ApiThrottle;
}

/** What an operation's function is granted, from its `auth` and `resources`. */
export interface OperationGrants {
  tables: readonly TableDefinition[];
  objectActions: readonly MediaObjectAction[];
  /** kms:Encrypt on the secrets key, one statement per purpose, each conditioned on it. */
  encryptSecretsFor: readonly SecretPurpose[];
  /** kms:Decrypt on the secrets key, likewise. */
  decryptSecretsFor: readonly SecretPurpose[];
  /**
   * Reads the networks' app credentials (GetSecretValue on their secrets only) and calls the
   * networks: told where the secrets are, the network endpoints and PUBLIC_BASE_URL.
   */
  networkApps: boolean;
}

/** What one kind of resource adds. */
interface ResourceGrant {
  tables?: readonly TableDefinition[];
  objectActions?: readonly MediaObjectAction[];
  encryptSecretsFor?: SecretPurpose;
  decryptSecretsFor?: SecretPurpose;
  networkApps?: true;
}

/**
 * What each kind of `OperationResource` adds to an operation's grants. A record over the union: a
 * new kind of resource does not compile until it is given its grant here.
 */
const RESOURCE_GRANTS: Record<OperationResource, ResourceGrant> = {
  'idempotency-table': { tables: [IDEMPOTENCY_TABLE] },
  'media-upload': { objectActions: ['s3:PutObject'] },
  'media-read': { objectActions: ['s3:GetObject'] },
  'media-delete': { objectActions: ['s3:DeleteObject'] },
  'secrets-encrypt': { encryptSecretsFor: 'webhook-signing-secret' },
  'network-apps': { networkApps: true },
  // Tokens are kept on the account records, in the main table: an operation without an API key (the
  // OAuth callback, which stores them) gets that table from here, the rate-limits table never.
  'oauth-tokens-encrypt': { tables: [MAIN_TABLE], encryptSecretsFor: 'oauth-token' },
  'oauth-tokens-decrypt': { tables: [MAIN_TABLE], decryptSecretsFor: 'oauth-token' },
};

/**
 * A key-authenticated operation reads and writes the main and rate-limits tables (the key, the
 * tenant, the counters), plus what its `resources` name. One with `auth: 'none'` skips the key and
 * the rate limit, so it gets only what its `resources` name: nothing for the OpenAPI document; app
 * credentials, the main table and token encryption for the OAuth callback.
 */
export function operationGrants(operation: Operation): OperationGrants {
  const extra = (operation.resources ?? []).map((resource) => RESOURCE_GRANTS[resource]);
  const keyed = operation.auth === 'none' ? [] : [MAIN_TABLE, RATE_LIMITS_TABLE];
  const tables = new Map<string, TableDefinition>();
  for (const table of [...keyed, ...extra.flatMap((grant) => grant.tables ?? [])]) {
    if (!tables.has(table.id)) tables.set(table.id, table);
  }
  return {
    tables: [...tables.values()],
    objectActions: [...new Set(extra.flatMap((grant) => grant.objectActions ?? []))],
    encryptSecretsFor: [...new Set(extra.flatMap((grant) => grant.encryptSecretsFor ?? []))],
    decryptSecretsFor: [...new Set(extra.flatMap((grant) => grant.decryptSecretsFor ?? []))],
    networkApps: extra.some((grant) => grant.networkApps),
  };
}

/**
 * What a function that runs several operations (MCP, the dashboard) is granted: the union of their
 * grants, each table, action and purpose once, in the order they first appear.
 */
export function unionOfGrants(all: readonly OperationGrants[]): OperationGrants {
  const tables = new Map<string, TableDefinition>();
  for (const table of all.flatMap((grants) => grants.tables)) {
    if (!tables.has(table.id)) tables.set(table.id, table);
  }
  return {
    tables: [...tables.values()],
    objectActions: [...new Set(all.flatMap((grants) => grants.objectActions))],
    encryptSecretsFor: [...new Set(all.flatMap((grants) => grants.encryptSecretsFor))],
    decryptSecretsFor: [...new Set(all.flatMap((grants) => grants.decryptSecretsFor))],
    networkApps: all.some((grants) => grants.networkApps),
  };
}

/** What grants are given on: the stack's tables, media bucket, secrets key and app secrets. */
export interface GrantTargets {
  data: DataTables;
  media: MediaStorage;
  secretsKey: kms.IKey;
  networkApps: NetworkApps;
}

/** Gives `role` exactly `grants`, on the stack's own resources (nothing when a part is empty). */
export function applyGrants(role: iam.IRole, grants: OperationGrants, targets: GrantTargets): void {
  if (grants.networkApps) targets.networkApps.grantRead(role);
  if (grants.tables.length > 0) targets.data.grantReadWriteData(role, grants.tables);
  if (grants.objectActions.length > 0) targets.media.grantTenantObjects(role, grants.objectActions);
  for (const purpose of grants.encryptSecretsFor) {
    role.addToPrincipalPolicy(encryptStatement(targets.secretsKey, purpose));
  }
  for (const purpose of grants.decryptSecretsFor) {
    role.addToPrincipalPolicy(decryptStatement(targets.secretsKey, purpose));
  }
}

/**
 * kms:Encrypt on the key, only when the call's encryption context names `purpose` (the adapter
 * always sends it, shared/ports/secret-cipher.ts): such a function can make new secrets of that
 * kind and can read none, unless it is also given `decryptStatement` for the purpose.
 */
export function encryptStatement(key: kms.IKey, purpose: SecretPurpose): iam.PolicyStatement {
  return keyStatement('kms:Encrypt', key, purpose);
}

/** kms:Decrypt on the key, only for ciphertexts whose encryption context names `purpose`. */
export function decryptStatement(key: kms.IKey, purpose: SecretPurpose): iam.PolicyStatement {
  return keyStatement('kms:Decrypt', key, purpose);
}

function keyStatement(action: string, key: kms.IKey, purpose: SecretPurpose): iam.PolicyStatement {
  return new iam.PolicyStatement({
    actions: [action],
    resources: [key.keyArn],
    conditions: { StringEquals: { 'kms:EncryptionContext:purpose': purpose } },
  });
}

/**
 * The HTTP API, built from the operation registry: for each operation one function (its own entry,
 * generated from the registry by infra/operation-entries.ts, so its bundle holds only what that
 * operation runs) and one route `METHOD path`; everything
 * else goes to the `$default` route's fallback function (404 / 405 envelopes). Each function is granted
 * what `operationGrants` derives from its operation. Adding an operation to the registry adds its
 * function, route and grants here with no edit.
 */
export class ServiceHttpApi extends Construct {
  readonly httpApi: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  /** By operation id. */
  readonly operationFunctions: ReadonlyMap<string, ServiceFunction>;
  /** By operation id. */
  readonly operationRoutes: ReadonlyMap<string, apigw.HttpRoute>;
  readonly fallbackFunction: ServiceFunction;
  /** The `$default` route (created by the HttpApi for its default integration). */
  readonly fallbackRoute: apigw.HttpRoute;
  /** Present when a custom domain was given. */
  readonly domainName?: apigw.DomainName;
  /**
   * Where callers reach the API, no trailing slash: `https://<custom domain>` when there is one,
   * else the execute-api address. PUBLIC_BASE_URL of the functions that build OAuth callback URLs.
   */
  readonly publicBaseUrl: string;

  constructor(scope: Construct, id: string, props: ServiceHttpApiProps) {
    super(scope, id);

    this.fallbackFunction = new ServiceFunction(this, 'Fallback', {
      entry: 'fallback',
      description: 'Answers requests no operation claims: 404, or 405 with Allow.',
      memorySize: 256,
      // It reads no table or bucket: of the shared environment, only the log level applies.
      ...(props.environment.POWERTOOLS_LOG_LEVEL && {
        environment: { POWERTOOLS_LOG_LEVEL: props.environment.POWERTOOLS_LOG_LEVEL },
      }),
    });

    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: 'Social publishing API',
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('Fallback', this.fallbackFunction.function),
    });
    this.fallbackRoute = this.httpApi.node.findChild('DefaultRoute') as apigw.HttpRoute;

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      // The stage's default route settings: every route, the $default one included.
      throttle: props.throttle ?? DEFAULT_API_THROTTLE,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            time: '$context.requestTime',
            ip: '$context.identity.sourceIp',
            method: '$context.httpMethod',
            path: '$context.path',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    this.publicBaseUrl = props.customDomain
      ? `https://${props.customDomain.domainName}`
      : this.httpApi.apiEndpoint;

    const operationFunctions = new Map<string, ServiceFunction>();
    const operationRoutes = new Map<string, apigw.HttpRoute>();
    for (const operation of props.operations) {
      const grants = operationGrants(operation);
      const usesKey = grants.encryptSecretsFor.length + grants.decryptSecretsFor.length > 0;
      const fn = new ServiceFunction(this, operation.id, {
        entry: writeOperationEntry(operation),
        description: `${operation.method} ${operation.path}: ${operation.summary}`.slice(0, 256),
        environment: {
          OPERATION_ID: operation.id,
          ...props.environment,
          // Only a function that may use the key learns which key it is (config.ts: 503 without).
          ...(usesKey && { SECRETS_KEY_ARN: props.secretsKey.keyArn }),
          // The OAuth operations: the apps' secrets, the endpoints, and the callback's base URL.
          ...(grants.networkApps && {
            ...props.networkApps.environment,
            PUBLIC_BASE_URL: this.publicBaseUrl,
          }),
        },
      });
      applyGrants(fn.role, grants, props);
      const route = new apigw.HttpRoute(this, `${operation.id}Route`, {
        httpApi: this.httpApi,
        routeKey: apigw.HttpRouteKey.with(operation.path, apigw.HttpMethod[operation.method]),
        integration: new HttpLambdaIntegration(`${operation.id}Integration`, fn.function),
      });
      operationFunctions.set(operation.id, fn);
      operationRoutes.set(operation.id, route);
    }
    this.operationFunctions = operationFunctions;
    this.operationRoutes = operationRoutes;

    if (props.customDomain) {
      this.domainName = new apigw.DomainName(this, 'CustomDomain', {
        domainName: props.customDomain.domainName,
        certificate: acm.Certificate.fromCertificateArn(
          this,
          'CustomDomainCertificate',
          props.customDomain.certificateArn,
        ),
        endpointType: apigw.EndpointType.REGIONAL,
        securityPolicy: apigw.SecurityPolicy.TLS_1_2,
      });
      new apigw.ApiMapping(this, 'CustomDomainMapping', {
        api: this.httpApi,
        domainName: this.domainName,
        stage: this.stage,
      });
    }
  }

  /** Every function of this construct: one per operation, and the fallback. */
  get functions(): readonly ServiceFunction[] {
    return [...this.operationFunctions.values(), this.fallbackFunction];
  }
}
