import type * as z from 'zod';
import { idOf } from '../operations/common-schemas.js';
import { type JsonSchema, jsonSchema } from './openapi-json-schema.js';
import type { Operation } from './operation.js';

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

/** Header schemas use the lower-case names API Gateway delivers; documentation shows the usual form. */
function displayHeaderName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}

/**
 * A `+` in a query string reads as a space, so a time with a `+hh:mm` offset must send it as `%2B`:
 * advice for a URL's author, said on REST's query parameters only (an MCP tool's argument is JSON).
 */
function describedForQueryString(description: unknown, schema: JsonSchema): string | undefined {
  if (typeof description !== 'string') return undefined;
  return schema.format === 'date-time' ? `${description} In a query string, send + as %2B.` : description;
}

/** The operation's path, query and header parameters, each described by its schema's description. */
export function parametersFor(
  operation: Operation,
  components: Record<string, JsonSchema>,
): ParameterObject[] {
  const fromShape = (shape: z.ZodRawShape, location: ParameterObject['in']): ParameterObject[] =>
    Object.entries(shape).map(([name, schema]) => {
      const property = jsonSchema(schema as z.ZodType, 'input', components);
      const optional = (schema as z.ZodType).safeParse(undefined).success;
      const description =
        location === 'query' ? describedForQueryString(property.description, property) : property.description;
      return {
        name: location === 'header' ? displayHeaderName(name) : name,
        in: location,
        required: location === 'path' || !optional,
        ...(typeof description === 'string' && { description }),
        schema: property,
      };
    });
  const parameters = [
    ...fromShape(operation.schemas.params.shape, 'path'),
    ...fromShape(operation.schemas.query.shape, 'query'),
    ...(operation.schemas.headers ? fromShape(operation.schemas.headers.shape, 'header') : []),
  ];
  if (operation.workspace === 'implicit') {
    const description = 'The workspace, when the key can access several (else 403 workspace_required).';
    parameters.push({
      name: 'workspaceId',
      in: 'query',
      required: false,
      description,
      // The id format the pipeline checks before anything else (a malformed id is 400).
      schema: { ...jsonSchema(idOf('workspace'), 'input', components), description },
    });
  }
  return parameters;
}
