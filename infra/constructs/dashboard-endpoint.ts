import { Duration } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { MAIN_TABLE, RATE_LIMITS_TABLE } from '../../shared/adapters/dynamodb/tables.js';
import { DASHBOARD_BASE } from '../../shared/dashboard/env.js';
import { isDashboardOperation } from '../../shared/dashboard/operations-used.js';
import type { Operation } from '../../shared/http/operation.js';
import type { MultiOperationEndpointProps } from './endpoint-props.js';
import { applyGrants, type OperationGrants, operationGrants, unionOfGrants } from './http-api.js';
import { ServiceFunction } from './service-function.js';

/** Where the dashboard is on the HTTP API: `/dashboard` and everything under it. */
export const DASHBOARD_PATH = DASHBOARD_BASE;

/**
 * What the dashboard's own code needs beyond the operations it runs: the main table (users,
 * sessions, one-time links, and the tenancy the admin use cases edit: workspaces, agents, keys,
 * policies) and the rate-limits table (sign-in failure counters).
 */
const PEOPLE_GRANTS: OperationGrants = {
  tables: [MAIN_TABLE, RATE_LIMITS_TABLE],
  objectActions: [],
  encryptSecretsFor: [],
  decryptSecretsFor: [],
  networkApps: false,
};

/**
 * The union of `operationGrants` over the operations the dashboard runs
 * (shared/dashboard/operations-used.ts) and the people's tables. Derived, never listed: a page
 * that starts running another operation widens the function by exactly that operation's grants.
 */
export function dashboardGrants(operations: readonly Operation[]): OperationGrants {
  const used = operations.filter((operation) => isDashboardOperation(operation.id));
  return unionOfGrants([PEOPLE_GRANTS, ...used.map(operationGrants)]);
}

export type DashboardEndpointProps = MultiOperationEndpointProps;

/**
 * The dashboard (`functions/dashboard.ts`): one function behind `ANY /dashboard` and
 * `ANY /dashboard/{proxy+}` on the HTTP API, payload format 2.0 (the browser's cookies arrive in
 * `event.cookies`), built with code splitting (docs/dashboard.md, "How pages load"). It signs
 * people in itself (sessions in the main table), so neither route has an API Gateway authorizer;
 * API Gateway's stage throttle covers both, as it covers every route.
 */
export class DashboardEndpoint extends Construct {
  readonly server: ServiceFunction;
  readonly grants: OperationGrants;
  /** `ANY /dashboard` and `ANY /dashboard/{proxy+}`. */
  readonly routes: readonly apigw.HttpRoute[];
  /**
   * `<public base URL>/dashboard`: the custom domain when there is one. Not the execute-api
   * address then: the session cookie belongs to one host, and a connect returns to the public one.
   */
  readonly url: string;

  constructor(scope: Construct, id: string, props: DashboardEndpointProps) {
    super(scope, id);
    this.grants = dashboardGrants(props.operations);
    const usesKey = this.grants.encryptSecretsFor.length + this.grants.decryptSecretsFor.length > 0;

    this.server = new ServiceFunction(this, 'DashboardServer', {
      entry: 'dashboard',
      // Each group of pages, and the stores, a chunk imported on its first request (issue 32): a
      // cold start answers the sign-in page without the operations' registry or the AWS SDK.
      splitting: true,
      description: 'Dashboard: server-rendered pages at /dashboard on the API, for the people of a tenant.',
      // As an operation function: a page runs one or two operations behind the same pipeline. The
      // 1024 MB (CPU, hence cold start, scales with memory) also leave room for scrypt, which
      // takes 32 MiB and a CPU-bound tenth of a second per sign-in; 10 s as on every API route.
      memorySize: 1024,
      timeout: Duration.seconds(10),
      environment: {
        ...props.environment,
        ...(usesKey && { SECRETS_KEY_ARN: props.secretsKey.keyArn }),
        ...(this.grants.networkApps && props.networkApps.environment),
        // Always: invitation links and the connect's return address are built on it, and an
        // https base keeps the cookies Secure (shared/runtime/make-dashboard-deps.ts).
        PUBLIC_BASE_URL: props.publicBaseUrl,
      },
    });
    applyGrants(this.server.role, this.grants, props);

    const integration = new HttpLambdaIntegration('Integration', this.server.function);
    this.routes = [DASHBOARD_PATH, `${DASHBOARD_PATH}/{proxy+}`].map(
      (path, index) =>
        new apigw.HttpRoute(this, index === 0 ? 'Route' : 'ProxyRoute', {
          httpApi: props.httpApi,
          routeKey: apigw.HttpRouteKey.with(path, apigw.HttpMethod.ANY),
          integration,
        }),
    );
    this.url = `${props.publicBaseUrl}${DASHBOARD_PATH}`;
  }
}
