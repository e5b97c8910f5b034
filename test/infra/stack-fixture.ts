import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { expect } from 'vitest';
import type { ServiceFunction } from '../../infra/constructs/service-function.js';
import { acknowledgeNagFindings } from '../../infra/nag-suppressions.js';
import { ServiceStack, type ServiceStackProps } from '../../infra/stacks/service-stack.js';
import type { Operation } from '../../shared/http/operation.js';

export type Json = Record<string, unknown>;

export interface CfnResource {
  Type: string;
  Properties: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string[];
}

export interface PolicyStatement {
  Action: string | string[];
  Resource: unknown;
  Effect: string;
  Condition?: Json;
  Principal?: unknown;
}

export const STACK_ID = 'SocialPublishing-test';

export interface BuildOptions {
  operations?: readonly Operation[];
  /** @default true: with the app's cdk-nag acknowledgements */
  acknowledge?: boolean;
  /** @default true; false skips esbuild (CDK's own switch, used by `cdk synth --exclusively`) */
  bundle?: boolean;
  /** Context as `cdk.json` or `-c` would give it. */
  context?: Record<string, unknown>;
  props?: Partial<ServiceStackProps>;
}

/**
 * The stack as `infra/app.ts` builds it (stage `test`), with its cdk-nag acknowledgements. The nag
 * plugin itself is run by the tests (so a finding fails one named test, not the whole file).
 */
export function buildStack(options: BuildOptions = {}): ServiceStack {
  const context = {
    ...options.context,
    // `aws:cdk:bundling-stacks: []` is CDK's own switch to skip bundling.
    ...(options.bundle === false && { 'aws:cdk:bundling-stacks': [] }),
  };
  const app = new App({ context });
  const stack = new ServiceStack(app, STACK_ID, {
    stage: 'test',
    ...(options.operations && { operations: options.operations }),
    ...options.props,
  });
  if (options.acknowledge !== false) acknowledgeNagFindings(stack);
  return stack;
}

export const logicalId = (construct: IConstruct): string => {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return Stack.of(construct).getLogicalId(element);
};

export const actionsOf = (statement: PolicyStatement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

export const resourcesOf = (statement: PolicyStatement): unknown[] =>
  Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];

/** `{ "Fn::GetAtt": [id, attribute] }` */
export const getAtt = (construct: IConstruct, attribute: string) => ({
  'Fn::GetAtt': [logicalId(construct), attribute],
});

/** `{ Ref: id }` */
export const ref = (construct: IConstruct) => ({ Ref: logicalId(construct) });

/** The two statements every function has: its own log group, and X-Ray (which takes no resource). */
export const LOGS_ACTIONS = ['logs:CreateLogStream', 'logs:PutLogEvents'];
export const XRAY_STATEMENT: PolicyStatement = {
  Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
  Effect: 'Allow',
  Resource: '*',
};

/** A synthesized stack, with ways to follow the template's references. */
export class SynthesizedStack {
  readonly template: Template;
  readonly resources: Record<string, CfnResource>;

  constructor(readonly stack: ServiceStack) {
    this.template = Template.fromStack(stack);
    this.resources = this.template.toJSON().Resources as Record<string, CfnResource>;
  }

  get outputs(): Record<string, { Value: unknown; Description?: string }> {
    return (this.template.toJSON().Outputs ?? {}) as Record<string, { Value: unknown }>;
  }

  ofType(type: string): [string, CfnResource][] {
    return Object.entries(this.resources).filter(([, resource]) => resource.Type === type);
  }

  /** A resource of the template, which must exist and have the given type. */
  resourceOf(id: string | undefined, type: string): CfnResource {
    const resource = this.resources[id ?? ''];
    if (resource?.Type !== type) throw new Error(`Expected ${id} to be a ${type}, found ${resource?.Type}.`);
    return resource;
  }

  /** The CloudFormation resource of a construct (its default child). */
  of(construct: IConstruct, type: string): CfnResource {
    return this.resourceOf(logicalId(construct), type);
  }

  /** Route → integration → function, by following the template's references. */
  functionBehindRoute(routeKey: string): { id: string; resource: CfnResource } {
    const routes = this.ofType('AWS::ApiGatewayV2::Route').filter(
      ([, r]) => r.Properties.RouteKey === routeKey,
    );
    expect(routes, `routes with RouteKey "${routeKey}"`).toHaveLength(1);
    const [, route] = routes[0] as [string, CfnResource];
    const integrationId = /"Ref":"([A-Za-z0-9]+)"/.exec(JSON.stringify(route.Properties.Target))?.[1];
    const integration = this.resourceOf(integrationId, 'AWS::ApiGatewayV2::Integration');
    expect(integration.Properties.IntegrationType).toBe('AWS_PROXY');
    expect(integration.Properties.PayloadFormatVersion).toBe('2.0');
    const uri = integration.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] };
    const functionId = uri['Fn::GetAtt'][0];
    return { id: functionId, resource: this.resourceOf(functionId, 'AWS::Lambda::Function') };
  }

  /** The function resource of a ServiceFunction. */
  functionOf(fn: ServiceFunction): CfnResource {
    return this.of(fn.function, 'AWS::Lambda::Function');
  }

  /** The environment variables of a function resource. */
  environmentOf(fn: CfnResource | ServiceFunction): Json {
    const resource = 'Type' in fn ? fn : this.functionOf(fn);
    return (resource.Properties.Environment as { Variables: Json }).Variables;
  }

  /** Every statement of the policies attached to a role, by the role's logical id. */
  statementsOfRole(roleId: string): PolicyStatement[] {
    return this.ofType('AWS::IAM::Policy')
      .filter(([, policy]) =>
        (policy.Properties.Roles as unknown[]).some(
          (r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId }),
        ),
      )
      .flatMap(
        ([, policy]) => (policy.Properties.PolicyDocument as { Statement: PolicyStatement[] }).Statement,
      );
  }

  /** Every statement of every policy attached to the function's role (which has no managed policy). */
  statementsOf(fn: CfnResource | ServiceFunction): PolicyStatement[] {
    const resource = 'Type' in fn ? fn : this.functionOf(fn);
    const roleId = (resource.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    expect(this.resources[roleId]?.Properties.ManagedPolicyArns).toBeUndefined();
    return this.statementsOfRole(roleId);
  }

  /** The statements of a function beyond its own log group and X-Ray (both asserted apart). */
  grantsOf(fn: CfnResource | ServiceFunction): PolicyStatement[] {
    return this.statementsOf(fn).filter(
      (statement) =>
        !actionsOf(statement).every((action) => LOGS_ACTIONS.includes(action)) &&
        JSON.stringify(statement) !== JSON.stringify(XRAY_STATEMENT),
    );
  }
}

/**
 * A statement in a form that compares regardless of order: sorted actions, resources sorted by
 * their JSON. `toEqual` on arrays of these is an exact, order-free comparison of grants.
 */
export function normalized(statement: PolicyStatement): Json {
  return {
    Effect: statement.Effect,
    Action: [...actionsOf(statement)].sort(),
    Resource: [...resourcesOf(statement)].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ...(statement.Condition && { Condition: statement.Condition }),
  };
}

export function normalizedAll(statements: readonly PolicyStatement[]): Json[] {
  return statements.map(normalized).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** Every (action, resource, condition) a set of statements allows, one string each. */
export function permissionsOf(statements: readonly PolicyStatement[]): Set<string> {
  return new Set(
    statements.flatMap((statement) =>
      actionsOf(statement).flatMap((action) =>
        resourcesOf(statement).map((resource) =>
          JSON.stringify({ action, resource, condition: statement.Condition ?? null }),
        ),
      ),
    ),
  );
}

/**
 * A function's environment as its process would see it: references (resolved by CloudFormation at
 * deploy time) become https placeholder strings, so the real config loaders can read them, URLs
 * (PUBLIC_BASE_URL, network endpoints) included.
 */
export function processEnvironment(variables: Json): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [
      name,
      typeof value === 'string'
        ? value
        : `https://resolved.example/${encodeURIComponent(JSON.stringify(value))}`,
    ]),
  );
}
