import { isAbsolute } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { SERVICE_NAME } from '../../shared/adapters/observability/powertools-logger.js';
import { METRICS_NAMESPACE } from '../../shared/adapters/observability/powertools-metrics.js';
import { functionEntry, lockFile, repoRoot } from '../paths.js';
import { lambdaAliasArgs, REQUIRE_BANNER, splitBundledCode } from './lambda-bundling.js';

export interface ServiceFunctionProps {
  /**
   * The entry file's name under `functions/`, without extension, or the absolute path of a
   * generated entry (an operation's, infra/operation-entries.ts; the MCP function's, infra/mcp-entry.ts).
   */
  entry: string;
  description: string;
  environment?: Record<string, string>;
  /** @default 1024 (arm64 CPU scales with memory; cold starts matter on an API) */
  memorySize?: number;
  /** @default 10 s (API Gateway gives up after 30 s anyway) */
  timeout?: Duration;
  /**
   * How often Lambda retries a failed asynchronous invocation (S3 notifications, scheduled rules).
   * @default Lambda's own (2)
   */
  retryAttempts?: number;
  /**
   * Built with esbuild's code splitting: each dynamic import of the entry becomes a chunk, loaded
   * when it is first imported (the MCP function's tools). The same esbuild options as the others
   * (lambda-bundling.ts), built at synth beside NodejsFunction, which cannot split.
   * @default false (one file, by NodejsFunction)
   */
  splitting?: boolean;
}

/**
 * Our defaults for every Lambda, in one place: Node 22 on arm64, an ESM bundle built by local
 * esbuild (no Docker; one file, or an entry and its chunks with `splitting`), minified, its source
 * maps beside it (read only when a stack is first printed: shared/runtime/lazy-source-maps.ts,
 * imported first by every entry; no `--enable-source-maps`, which parses them at every cold
 * start), X-Ray tracing, its own log group with a retention, and its own role that starts with
 * nothing but writing to that log group. Callers add grants for exactly what the function touches.
 */
export class ServiceFunction extends Construct {
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      // Logs are operational, not customer data: they go with the stack (the tables stay).
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // Our own role instead of the default one, which carries the AWS managed
    // AWSLambdaBasicExecutionRole (logs on every log group of the account).
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: props.description,
    });
    this.logGroup.grantWrite(this.role);

    const entry = isAbsolute(props.entry) ? props.entry : functionEntry(props.entry);
    const common = {
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(10),
      ...(props.retryAttempts !== undefined && { retryAttempts: props.retryAttempts }),
      role: this.role,
      logGroup: this.logGroup,
      tracing: lambda.Tracing.ACTIVE,
      environment: {
        // Powertools: one service name on logs, metrics and traces; the metrics' namespace; the
        // log level unless the stack's environment says otherwise.
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
    };

    this.function = props.splitting
      ? new lambda.Function(this, 'Function', {
          ...common,
          handler: 'index.handler',
          code: splitBundledCode(entry),
        })
      : new NodejsFunction(this, 'Function', {
          ...common,
          entry,
          handler: 'handler',
          projectRoot: repoRoot,
          depsLockFilePath: lockFile,
          bundling: {
            forceDockerBundling: false,
            format: OutputFormat.ESM,
            target: 'node22',
            mainFields: ['module', 'main'],
            minify: true,
            sourceMap: true,
            sourcesContent: false,
            // Bundle the AWS SDK too: the code that runs is the code we tested, not the runtime's copy.
            externalModules: [],
            // The credential chain and core-js's polyfills stay out of the bundle (LAMBDA_ALIASES).
            esbuildArgs: lambdaAliasArgs(),
            banner: REQUIRE_BANNER,
          },
        });
  }
}
