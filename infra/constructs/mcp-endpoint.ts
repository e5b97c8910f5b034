import { Duration } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { Operation } from '../../shared/http/operation.js';
import { isTool } from '../../shared/mcp/tool-catalog.js';
import { writeMcpEntry } from '../mcp-entry.js';
import type { MultiOperationEndpointProps } from './endpoint-props.js';
import { applyGrants, type OperationGrants, operationGrants, unionOfGrants } from './http-api.js';
import { ServiceFunction } from './service-function.js';

/** The path of the MCP endpoint on the HTTP API (spec: `{base_url}/mcp`). */
export const MCP_PATH = '/mcp';

/** What the MCP function is granted: every tool's grants at once, since it runs them all. */
export type McpGrants = OperationGrants;

/**
 * The union of `operationGrants` over the operations that are tools (`isTool`: key-authenticated;
 * not the OAuth callback, whose token encryption no tool needs), each table, action and purpose
 * once, in the order they first appear. Derived, never listed: an operation added to the registry
 * widens the MCP function's grants by exactly what its own function gets.
 */
export function mcpGrants(operations: readonly Operation[]): McpGrants {
  return unionOfGrants(operations.filter(isTool).map(operationGrants));
}

export interface McpEndpointProps extends MultiOperationEndpointProps {
  /**
   * Reserved concurrency: the most MCP invocations running at once. The Function URL has no
   * throttle of its own (API Gateway's stage throttle covers `/mcp` on the API only), so this is the
   * one cap on what a flood through it can cost. @default none (see docs/deploy.md, "MCP endpoint")
   */
  reservedConcurrency?: number;
}

/**
 * The MCP server: one function, reached two ways, both with payload format 2.0:
 * - `ANY /mcp` on the HTTP API (every method: the server itself answers 405 to those MCP does not
 *   use, with the envelope);
 * - its own Lambda Function URL, auth type NONE: the function checks the Bearer API key on every
 *   request, as the REST routes do (AWS_IAM would ask callers for SigV4 signatures, which API-key
 *   clients do not have).
 * Its entry is generated at synth (infra/mcp-entry.ts): `initialize` and `tools/list` answered from
 * a catalog written into it, each tool's module a chunk of its own (`splitting`), loaded on the
 * tool's first call (issue 32).
 */
export class McpEndpoint extends Construct {
  readonly server: ServiceFunction;
  readonly grants: McpGrants;
  readonly route: apigw.HttpRoute;
  readonly functionUrl: lambda.FunctionUrl;
  /** `<api endpoint>/mcp`. */
  readonly apiUrl: string;

  constructor(scope: Construct, id: string, props: McpEndpointProps) {
    super(scope, id);
    this.grants = mcpGrants(props.operations);
    const needsKey = this.grants.encryptSecretsFor.length + this.grants.decryptSecretsFor.length > 0;

    this.server = new ServiceFunction(this, 'McpServer', {
      entry: writeMcpEntry(props.operations),
      splitting: true,
      description: 'MCP server: one tool per operation, at /mcp on the API and at its own Function URL.',
      // As an operation function: one tools/call runs one operation's handler behind the same auth
      // and rate limit, so it gets the same 1024 MB (CPU, hence cold start, scales with memory) and
      // the same 10 s. Anything slower is a fault, and API Gateway would cut /mcp at 30 s anyway.
      memorySize: 1024,
      timeout: Duration.seconds(10),
      environment: {
        ...props.environment,
        // As for an operation: only told the key when some tool may use it.
        ...(needsKey && { SECRETS_KEY_ARN: props.secretsKey.keyArn }),
        ...(this.grants.networkApps && {
          ...props.networkApps.environment,
          PUBLIC_BASE_URL: props.publicBaseUrl,
        }),
      },
    });
    if (props.reservedConcurrency !== undefined) {
      // Set on the resource: no other function takes a cap, so ServiceFunction has no prop for it.
      const cfn = this.server.function.node.defaultChild as lambda.CfnFunction;
      cfn.reservedConcurrentExecutions = props.reservedConcurrency;
    }

    applyGrants(this.server.role, this.grants, props);

    this.route = new apigw.HttpRoute(this, 'Route', {
      httpApi: props.httpApi,
      routeKey: apigw.HttpRouteKey.with(MCP_PATH, apigw.HttpMethod.ANY),
      integration: new HttpLambdaIntegration('Integration', this.server.function),
    });
    this.apiUrl = `${props.httpApi.apiEndpoint}${MCP_PATH}`;

    // No CORS, as on the API: MCP clients are agents and servers, not pages in a browser.
    this.functionUrl = this.server.function.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE });
  }
}
