import { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Operation } from '../../shared/http/operation.js';
import { ServiceFunction } from './service-function.js';
import type { DataTables } from './tables.js';

export interface ServiceHttpApiProps {
  operations: readonly Operation[];
  data: DataTables;
}

/**
 * The HTTP API, built from the operation registry: for each operation one function (the shared
 * `functions/operation.ts` entry, told apart by OPERATION_ID) and one route `METHOD path`; everything
 * else goes to the `$default` route's fallback function (404 / 405 envelopes). Adding an operation to
 * the registry adds its function and route here with no edit.
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

  constructor(scope: Construct, id: string, props: ServiceHttpApiProps) {
    super(scope, id);

    this.fallbackFunction = new ServiceFunction(this, 'Fallback', {
      entry: 'fallback',
      description: 'Answers requests no operation claims: 404, or 405 with Allow.',
      memorySize: 256,
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

    const operationFunctions = new Map<string, ServiceFunction>();
    const operationRoutes = new Map<string, apigw.HttpRoute>();
    for (const operation of props.operations) {
      const fn = new ServiceFunction(this, operation.id, {
        entry: 'operation',
        description: `${operation.method} ${operation.path}: ${operation.summary}`.slice(0, 256),
        environment: { OPERATION_ID: operation.id, ...props.data.environment() },
      });
      // An operation without an API key never reaches the tables (auth and rate limiting are skipped).
      if (operation.auth !== 'none') props.data.grantReadWriteData(fn.role);
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
  }
}
