import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Operation } from '../shared/http/operation.js';
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
  const { api } = stack;
  for (const fn of [...api.operationFunctions.values(), api.fallbackFunction]) {
    acknowledgeFunctionDefaults(fn);
  }
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
}

function acknowledgeFunctionDefaults(fn: ServiceFunction): void {
  Validations.of(fn.function).acknowledge({
    id: 'AwsSolutions-L1',
    reason:
      'The runtime is fixed at nodejs22.x by the product design (DESIGN.md, "The stack"); ' +
      'moving to a newer Node is a deliberate, tested upgrade, not a lint fix.',
  });
  Validations.of(fn.role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'Added by active X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no ' +
      'resource-level permissions. DynamoDB grants name table and index ARNs (asserted in test/infra).',
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
