import * as z from 'zod';
import { errorEnvelopeSchema } from '../http/openapi-errors.js';
import type { Operation } from '../http/operation.js';
import { NETWORK_DEFINITIONS } from '../networks/definitions.js';
import { type JsonSchema, leanInputSchema, summarySchema } from './agent-schemas.js';
import { shareRepeatedParts } from './shared-subschemas.js';
import { annotationsOf, type ToolAnnotations } from './tool-annotations.js';
import { type ArgumentPlan, argumentPlanOf, camelCase } from './tool-arguments.js';

/** One MCP tool: what `tools/list` shows, and how a call maps back onto its operation. */
export interface Tool {
  name: string;
  /** The operation's summary, then its description (no separate `title`: see docs/mcp.md). */
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  /** Absent for an operation that answers 204 (no body). */
  outputSchema?: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
  operation: Operation;
  arguments: ArgumentPlan;
}

/**
 * Operations that are not tools:
 * - the workspace-less short forms (`workspace: 'implicit'`): the same operation as the full
 *   form, whose tool takes `workspaceId`; an agent lists workspaces first;
 * - operations without an API key (the OpenAPI document): `tools/list` already describes every tool.
 */
export function isTool(operation: Operation): boolean {
  return operation.auth === 'apiKey' && operation.workspace !== 'implicit';
}

/**
 * Each network's platformOptions schema: written out in every network's terms they would be most of
 * createPost's input and grow with each network, so a tool's input names them and listNetworks
 * answers them whole (docs/mcp.md#what-tools-list-costs). The server checks them as on REST.
 */
const NETWORK_OPTION_SCHEMAS: ReadonlySet<unknown> = new Set<unknown>(
  NETWORK_DEFINITIONS.map((definition) => definition.platformOptions.schema),
);

function readElsewhere(jsonSchema: Record<string, unknown>): void {
  for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
  Object.assign(jsonSchema, { type: 'object', description: 'Its fields: listNetworks.' });
}

/**
 * Draft-07, as the MCP SDK's own server emits: the SDK's client validates results with Ajv's
 * draft-07 mode. Definitions are gathered at the root so every `$ref` resolves.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', definitions: Record<string, JsonSchema>) {
  const {
    $schema: _dialect,
    definitions: own,
    ...rest
  } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (io === 'input' && NETWORK_OPTION_SCHEMAS.has(zodSchema)) readElsewhere(jsonSchema);
    },
  }) as JsonSchema;
  Object.assign(definitions, own as Record<string, JsonSchema> | undefined);
  return rest;
}

function withDefinitions(schema: JsonSchema, definitions: Record<string, JsonSchema>): JsonSchema {
  return Object.keys(definitions).length > 0 ? { ...schema, definitions } : schema;
}

function propertiesOf(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } {
  return {
    properties: (schema.properties ?? {}) as Record<string, JsonSchema>,
    required: (schema.required ?? []) as string[],
  };
}

/** One flat object: path parameters, query parameters, headers, and `body` (see tool-arguments.ts). */
function inputSchemaOf(operation: Operation, plan: ArgumentPlan): JsonSchema & { type: 'object' } {
  const { params, query, headers, body } = operation.schemas;
  const definitions: Record<string, JsonSchema> = {};
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const add = (part: JsonSchema, rename: (name: string) => string) => {
    const shape = propertiesOf(part);
    for (const [name, property] of Object.entries(shape.properties)) properties[rename(name)] = property;
    required.push(...shape.required.map(rename));
  };
  add(jsonSchemaOf(params, 'input', definitions), camelCase);
  add(jsonSchemaOf(query, 'input', definitions), (name) => name);
  if (headers) add(jsonSchemaOf(headers, 'input', definitions), camelCase);
  if (body && plan.body) {
    properties.body = {
      ...jsonSchemaOf(body, 'input', definitions),
      description: 'The request body.',
    };
    if (!body.safeParse(undefined).success) required.push('body');
  }
  return leanInputSchema(
    withDefinitions({ type: 'object', properties, required, additionalProperties: false }, definitions),
  ) as JsonSchema & { type: 'object' };
}

/** What every failed call's structured content has (tool-result.ts): our envelope and the HTTP status. */
const ERROR_ENVELOPE_FIELDS = ['error', 'message', 'status'] as const;

/**
 * The JSON types of every member a failed call's envelope may carry: the envelope's schema's (the
 * error codes' extra members included), `status` (the tool result adds the HTTP status) and
 * `platform` of network_not_configured, which the schema leaves to additionalProperties.
 */
const ENVELOPE_MEMBER_TYPES: ReadonlyMap<string, readonly string[]> = new Map([
  ...Object.entries((errorEnvelopeSchema.properties ?? {}) as Record<string, JsonSchema>).map(
    ([name, member]) => [name, [member.type ?? []].flat() as string[]] as const,
  ),
  ['status', ['integer']],
  ['platform', ['string']],
]);

/** Whether a summary's field takes every value the envelope's member of that name may hold. */
function takesMember(field: JsonSchema, types: readonly string[]): boolean {
  const allowed = [field.type ?? []].flat() as string[];
  if (allowed.length === 0 || Object.keys(field).some((key) => key !== 'type')) return false;
  return types.every((type) => allowed.includes(type) || (type === 'integer' && allowed.includes('number')));
}

/**
 * Whether our envelope already fits the summary: an object summary of fields, none required (a
 * summary states none), and each field named like a member of the envelope of a type that takes it.
 */
function envelopeFits(summary: JsonSchema): boolean {
  if (summary.type !== 'object' || summary.anyOf !== undefined || summary.allOf !== undefined) return false;
  return Object.entries((summary.properties ?? {}) as Record<string, JsonSchema>).every(([name, field]) => {
    const types = ENVELOPE_MEMBER_TYPES.get(name);
    return types === undefined || takesMember(field, types);
  });
}

/**
 * A summary of the operation's response, or our error envelope: the SDK's client checks a failed
 * call's structured content against this schema too, so both shapes are in it. Where the summary
 * already takes the envelope (no field of the same name), the envelope's own shape would say
 * nothing more and is left out; the server's instructions say what a failed call holds.
 */
function outputSchemaOf(operation: Operation): (JsonSchema & { type: 'object' }) | undefined {
  if (operation.successStatus === 204) return undefined;
  const definitions: Record<string, JsonSchema> = {};
  const success = jsonSchemaOf(operation.schemas.response, 'output', definitions);
  const summary = summarySchema(withDefinitions(success, definitions));
  if (envelopeFits(summary)) return summary as JsonSchema & { type: 'object' };
  return { type: 'object', anyOf: [summary, { required: [...ERROR_ENVELOPE_FIELDS] }] };
}

/**
 * The summary, then what the tool does in its own terms. Not the REST method and path: a tool's
 * caller never sends them, and the tool's name is the OpenAPI operationId for whoever maps one
 * onto the other.
 */
function descriptionOf(operation: Operation): string {
  return `${operation.summary}. ${operation.toolDescription ?? operation.description}`;
}

export function toolOf(operation: Operation): Tool {
  const plan = argumentPlanOf(operation);
  const outputSchema = outputSchemaOf(operation);
  return {
    name: operation.id,
    description: descriptionOf(operation),
    inputSchema: inputSchemaOf(operation, plan),
    ...(outputSchema && { outputSchema }),
    annotations: annotationsOf(operation),
    operation,
    arguments: plan,
  };
}

/**
 * Every tool of the registry, by name (the operation's id, camelCase, stable), in the registry's
 * order: a schema part several tools share is written out by the first (shared-subschemas.ts).
 */
export function buildToolCatalog(operations: readonly Operation[]): ReadonlyMap<string, Tool> {
  const tools = operations.filter(isTool).map(toolOf);
  const shared = shareRepeatedParts(
    tools.flatMap((tool) => [
      { tool: tool.name, kind: 'input' as const, schema: tool.inputSchema },
      ...(tool.outputSchema ? [{ tool: tool.name, kind: 'output' as const, schema: tool.outputSchema }] : []),
    ]),
  );
  let next = 0;
  const leaner = tools.map((tool) => {
    // Again lean: a definition that sharing left used once is written where it is used.
    const inputSchema = leanInputSchema(shared[next++] as JsonSchema) as Tool['inputSchema'];
    const outputSchema = tool.outputSchema && (shared[next++] as NonNullable<Tool['outputSchema']>);
    return { ...tool, inputSchema, ...(outputSchema && { outputSchema }) };
  });
  return new Map(leaner.map((tool) => [tool.name, tool]));
}
