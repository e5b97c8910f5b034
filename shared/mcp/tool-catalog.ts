import * as z from 'zod';
import { errorEnvelopeSchema } from '../http/openapi.js';
import type { Operation } from '../http/operation.js';
import { type ArgumentPlan, argumentPlanOf, camelCase } from './tool-arguments.js';

type JsonSchema = Record<string, unknown>;

/** MCP's tool annotations (hints to the client; the server enforces nothing by them). */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** One MCP tool: what `tools/list` shows, and how a call maps back onto its operation. */
export interface Tool {
  name: string;
  title: string;
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
      description: 'The JSON body of the REST call.',
    };
    if (!body.safeParse(undefined).success) required.push('body');
  }
  return withDefinitions(
    { type: 'object', properties, required, additionalProperties: false },
    definitions,
  ) as JsonSchema & { type: 'object' };
}

/**
 * The operation's response, or our error envelope (with the HTTP status): the SDK's client checks
 * a failed call's structured content against this schema too, so both shapes are in it.
 */
function outputSchemaOf(operation: Operation): (JsonSchema & { type: 'object' }) | undefined {
  if (operation.successStatus === 204) return undefined;
  const definitions: Record<string, JsonSchema> = {};
  const success = jsonSchemaOf(operation.schemas.response, 'output', definitions);
  const { example: _example, ...envelope } = errorEnvelopeSchema;
  const failureSchema = {
    ...envelope,
    required: ['error', 'message', 'status'],
    properties: {
      ...(envelope.properties as Record<string, JsonSchema>),
      status: { type: 'integer', description: 'The HTTP status the same REST call answers.' },
    },
  };
  return withDefinitions({ type: 'object', anyOf: [success, failureSchema] }, definitions) as JsonSchema & {
    type: 'object';
  };
}

function annotationsOf(operation: Operation): ToolAnnotations {
  const hints = operation.effects ?? {};
  const readOnly = operation.method === 'GET' || hints.readOnly === true;
  return {
    title: operation.summary,
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && (operation.method === 'DELETE' || hints.destructive === true),
    idempotentHint:
      readOnly || operation.method === 'PUT' || operation.method === 'DELETE' || hints.idempotent === true,
    openWorldHint: hints.reachesNetwork === true,
  };
}

function descriptionOf(operation: Operation): string {
  return `${operation.summary}. ${operation.description} (REST: ${operation.method} ${operation.path})`;
}

export function toolOf(operation: Operation): Tool {
  const plan = argumentPlanOf(operation);
  const outputSchema = outputSchemaOf(operation);
  return {
    name: operation.id,
    title: operation.summary,
    description: descriptionOf(operation),
    inputSchema: inputSchemaOf(operation, plan),
    ...(outputSchema && { outputSchema }),
    annotations: annotationsOf(operation),
    operation,
    arguments: plan,
  };
}

/** Every tool of the registry, by name (the operation's id, camelCase, stable). */
export function buildToolCatalog(operations: readonly Operation[]): ReadonlyMap<string, Tool> {
  return new Map(operations.filter(isTool).map((operation) => [operation.id, toolOf(operation)]));
}
