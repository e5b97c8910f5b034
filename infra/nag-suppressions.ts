import { type App, Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import type { Operation } from '../shared/http/operation.js';
import { operationGrants } from './constructs/http-api.js';
import type { ServiceFunction } from './constructs/service-function.js';
import type { ServiceStack } from './stacks/service-stack.js';

/**
 * cdk-nag (AWS Solutions rules) runs on every synth; a finding fails it. The findings we accept are
 * acknowledged here, each on the narrowest construct it applies to and with the reason it is safe.
 * (cdk-nag 3 takes acknowledgements through CDK's `Validations`; it has no NagSuppressions any more.)
 */
export function addNagChecks(app: App, stack: ServiceStack): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  acknowledgeNagFindings(stack);
}

/** Exported apart so tests can compare a stack with and without the acknowledgements. */
export function acknowledgeNagFindings(stack: ServiceStack): void {
  const { api, mcp, dashboard, workers, media, scheduling, queues } = stack;
  for (const fn of stack.functions) acknowledgeFunctionDefaults(fn);

  for (const [operationId, route] of api.operationRoutes) {
    Validations.of(route).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: routeAuthReason(operationById(stack, operationId)),
    });
  }
  Validations.of(api.fallbackRoute).acknowledge({
    id: 'AwsSolutions-APIG4',
    reason:
      'The $default route only answers requests no operation claims, with a 404 or 405 error envelope; ' +
      'it reads no data and needs no caller identity.',
  });

  Validations.of(mcp.route).acknowledge({
    id: 'AwsSolutions-APIG4',
    reason:
      'ANY /mcp authenticates in its function: the API key (Bearer) is resolved against the tenant store ' +
      'on every request, and each tool call gets the plan and permission checks of the REST routes; the ' +
      'MCP function also answers at its own Function URL, where no API Gateway authorizer could stand.',
  });

  for (const route of dashboard.routes) {
    Validations.of(route).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'The dashboard signs people in itself: every page but sign-in, the one-time links and its own ' +
        'stylesheet and script needs a session cookie resolved against the sessions in the main table, ' +
        'each form a CSRF token; a browser holds no token an API Gateway authorizer could check.',
    });
  }

  // Tenant objects: every function granted S3 object actions, on `<bucket>/t/*` only.
  const objectUsers = [
    ...stack.operations
      .filter((operation) => operationGrants(operation).objectActions.length > 0)
      .map((operation) => api.operationFunctions.get(operation.id) as ServiceFunction),
    // The MCP server runs every operation, so it holds their object actions together.
    ...(mcp.grants.objectActions.length > 0 ? [mcp.server] : []),
    // The dashboard's composer signs upload URLs (createUploadUrl) and confirms them (confirmMedia).
    ...(dashboard.grants.objectActions.length > 0 ? [dashboard.server] : []),
    workers.deliveryWorker,
    workers.mediaImporter,
    workers.mediaUploaded,
  ];
  for (const fn of objectUsers) {
    Validations.of(fn.role).acknowledge({
      id: wildcardResourceFinding(fn.role, media.tenantObjectsArn),
      reason:
        'Object keys are made per request (t/<tenantId>/w/<workspaceId>/m/<mediaId>, docs/media.md), so ' +
        'no grant can name them: this one names the tenant prefix t/ and object actions only (no List, ' +
        'no bucket-level action); each key is built in code from the authenticated tenant and workspace.',
    });
  }

  Validations.of(workers.outbox.role).acknowledge({
    id: wildcardResourceFinding(workers.outbox.role, scheduling.schedulesArn),
    reason:
      "One schedule per post, named by the post id at run time: the grant covers the stage's own " +
      'schedule group only (create, update, delete; no list, no other group), and PassRole is limited ' +
      'to the scheduler role, passed to scheduler.amazonaws.com.',
  });

  for (const secret of stack.networkApps.secrets.values()) {
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        "An OAuth client secret is issued by the network's developer portal, not by anything AWS can " +
        'call: no rotation function could make a new one. The operator rotates it at the network and ' +
        'puts the new value here (docs/deploy.md); the functions read it again within 5 minutes.',
    });
  }

  Validations.of(queues.outboxFailures).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason:
      "This queue is itself a dead-letter destination: the on-failure destination of the outbox's " +
      'stream mapping (Lambda sets failed stream batches aside in it). Nothing consumes it; an alarm ' +
      'fires on its first message.',
  });

  const notificationsHandler = stack.node.children.find((child) =>
    child.node.id.startsWith('BucketNotificationsHandler'),
  );
  if (notificationsHandler) {
    Validations.of(notificationsHandler).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason:
        "CDK's own deploy-time function that writes the media bucket's notification configuration: its " +
        'role gets AWSLambdaBasicExecutionRole (its log output only) from CDK, and its one other ' +
        'permission is s3:PutBucketNotification on the media bucket alone.',
    });
  }
}

function acknowledgeFunctionDefaults(fn: ServiceFunction): void {
  Validations.of(fn.function).acknowledge({
    id: 'AwsSolutions-L1',
    reason:
      'The runtime is fixed at nodejs22.x by the product design (docs/architecture.md#the-stack); ' +
      'moving to a newer Node is a deliberate, tested upgrade, not a lint fix.',
  });
  Validations.of(fn.role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'Added by active X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no ' +
      'resource-level permissions. Every other grant names its resources (asserted in test/infra).',
  });
}

function routeAuthReason(operation: Operation): string {
  if (operation.auth === 'none') {
    return `${operation.method} ${operation.path} is public by design (auth: none in the operation registry).`;
  }
  return (
    `${operation.method} ${operation.path} authenticates in its function: the API key (Bearer) is ` +
    'resolved against the tenant store, with plan and permission checks (shared/http/middlewares/' +
    'authenticate.ts), which an API Gateway authorizer could not do without a second lookup.'
  );
}

function operationById(stack: ServiceStack, id: string): Operation {
  const operation = stack.operations.find((candidate) => candidate.id === id);
  if (!operation) throw new Error(`No operation "${id}" in stack ${stack.stackName}.`);
  return operation;
}

/**
 * The id cdk-nag gives the IAM5 finding of a wildcard resource: `AwsSolutions-IAM5[Resource::<arn>]`,
 * the ARN flattened as cdk-nag does (`<Logical.Attr>` for Fn::GetAtt, `<Logical>` for Ref, joins
 * concatenated), so an acknowledgement names exactly one resource pattern.
 */
export function wildcardResourceFinding(scope: IConstruct, arn: string): string {
  return `AwsSolutions-IAM5[Resource::${flattenReference(Stack.of(scope).resolve(arn))}]`;
}

function flattenReference(node: unknown): string {
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  if (node !== null && typeof node === 'object') {
    const value = node as Record<string, unknown>;
    if (Array.isArray(value['Fn::Join'])) {
      const [delimiter, items] = value['Fn::Join'] as [string, unknown[]];
      return items.map(flattenReference).join(delimiter);
    }
    if (Array.isArray(value['Fn::GetAtt'])) {
      const [resource, attribute] = value['Fn::GetAtt'] as [unknown, unknown];
      return `<${flattenReference(resource)}.${flattenReference(attribute)}>`;
    }
    if (value.Ref !== undefined) return `<${flattenReference(value.Ref)}>`;
  }
  return JSON.stringify(node);
}
