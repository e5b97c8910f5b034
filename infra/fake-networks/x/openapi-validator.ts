import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Checks requests against X's own OpenAPI document (x-api-v2-openapi.json here: X API v2 2.167,
 * from xdevplatform/xdk specs/openapi.json, formatted but otherwise unchanged), as X does: each
 * operation's request body schema for its content type, and its path and query parameters, with
 * every $ref resolved inside the document. Validators are compiled on first use and kept.
 */

type OpenApiDocument = {
  paths: Record<string, Record<string, OpenApiOperation | unknown>>;
  components: Record<string, Record<string, unknown>>;
};
type OpenApiOperation = {
  parameters?: ({ $ref: string } | OpenApiParameter)[];
  requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> };
};
type OpenApiParameter = {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: { $ref?: string; type?: string };
};

export interface ValidationProblem {
  /** Where: `body/media/media_ids`, `query/max_results`. */
  where: string;
  message: string;
}

export interface RequestToValidate {
  method: 'get' | 'post';
  /** The path template as in the document: `/2/users/{id}/tweets`. */
  template: string;
  pathParameters: Record<string, string>;
  query: URLSearchParams;
  body?:
    | { contentType: 'application/json'; value: unknown }
    | { contentType: 'multipart/form-data'; fields: Record<string, string> };
}

const DOCUMENT_ID = 'x-openapi';
const DOCUMENT_FILE = new URL('./x-api-v2-openapi.json', import.meta.url);

/** A JSON pointer into the document, as a URI fragment (each segment escaped, then percent-encoded). */
function pointer(...segments: (string | number)[]): string {
  const escaped = segments.map((segment) =>
    encodeURIComponent(String(segment).replace(/~/g, '~0').replace(/\//g, '~1')),
  );
  return `${DOCUMENT_ID}#/${escaped.join('/')}`;
}

export class XOpenApiValidator {
  private readonly document: OpenApiDocument;
  /** JSON bodies as sent: no coercion, X's schemas as they are. */
  private readonly strict: Ajv;
  /** Query, path and form fields arrive as text: typed as the schema says before checking. */
  private readonly coercing: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument = XOpenApiValidator.load()) {
    this.document = document;
    // strict: false, since the document is OpenAPI 3.0 (example, nullable, discriminator …), not pure JSON Schema.
    this.strict = new Ajv({ strict: false, allErrors: true });
    this.coercing = new Ajv({ strict: false, allErrors: true, coerceTypes: true });
    for (const ajv of [this.strict, this.coercing]) {
      addFormats(ajv);
      ajv.addSchema(document, DOCUMENT_ID);
    }
  }

  static load(): OpenApiDocument {
    return JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as OpenApiDocument;
  }

  /** Every problem with the request; empty when X would take it. */
  validate(request: RequestToValidate): ValidationProblem[] {
    const operation = this.document.paths[request.template]?.[request.method] as OpenApiOperation | undefined;
    if (!operation) throw new Error(`No ${request.method} ${request.template} in X's OpenAPI document.`);
    return [...this.parameterProblems(request, operation), ...this.bodyProblems(request, operation)];
  }

  private parameterProblems(request: RequestToValidate, operation: OpenApiOperation): ValidationProblem[] {
    const problems: ValidationProblem[] = [];
    const known = new Set<string>();
    for (const [index, entry] of (operation.parameters ?? []).entries()) {
      const { parameter, schemaRef } = this.parameterAt(request, entry, index);
      if (parameter.in !== 'query' && parameter.in !== 'path') continue;
      known.add(parameter.name);
      const raw =
        parameter.in === 'path'
          ? request.pathParameters[parameter.name]
          : (request.query.get(parameter.name) ?? undefined);
      if (raw === undefined) {
        if (parameter.required)
          problems.push({ where: `${parameter.in}/${parameter.name}`, message: 'is required' });
        continue;
      }
      // style form, explode false: an array travels as one comma-separated value.
      const value = this.isArray(parameter.schema) ? raw.split(',') : raw;
      const validate = this.compile(this.coercing, `param:${schemaRef}`, {
        type: 'object',
        properties: { value: { $ref: schemaRef } },
      });
      if (!validate({ value }))
        problems.push(...describe(validate.errors, `${parameter.in}/${parameter.name}`, '/value'));
    }
    for (const name of request.query.keys()) {
      if (!known.has(name))
        problems.push({ where: `query/${name}`, message: 'is not a parameter of this operation' });
    }
    return problems;
  }

  private parameterAt(
    request: RequestToValidate,
    entry: { $ref: string } | OpenApiParameter,
    index: number,
  ): { parameter: OpenApiParameter; schemaRef: string } {
    if ('$ref' in entry) {
      const name = entry.$ref.replace('#/components/parameters/', '');
      const parameter = this.document.components.parameters?.[name] as OpenApiParameter;
      return { parameter, schemaRef: pointer('components', 'parameters', name, 'schema') };
    }
    return {
      parameter: entry,
      schemaRef: pointer('paths', request.template, request.method, 'parameters', index, 'schema'),
    };
  }

  private isArray(schema: OpenApiParameter['schema']): boolean {
    if (schema.type) return schema.type === 'array';
    const name = schema.$ref?.replace('#/components/schemas/', '');
    const resolved = name
      ? (this.document.components.schemas?.[name] as { type?: string } | undefined)
      : undefined;
    return resolved?.type === 'array';
  }

  private bodyProblems(request: RequestToValidate, operation: OpenApiOperation): ValidationProblem[] {
    const declared = operation.requestBody;
    if (!request.body) {
      return declared?.required ? [{ where: 'body', message: 'is required' }] : [];
    }
    if (!declared?.content[request.body.contentType]) {
      return [{ where: 'body', message: `${request.body.contentType} is not accepted here` }];
    }
    const schemaRef = pointer(
      'paths',
      request.template,
      request.method,
      'requestBody',
      'content',
      request.body.contentType,
      'schema',
    );
    if (request.body.contentType === 'application/json') {
      const validate = this.compile(this.strict, `body:${schemaRef}`, { $ref: schemaRef });
      return validate(request.body.value) ? [] : describe(validate.errors, 'body', '');
    }
    const validate = this.compile(this.coercing, `form:${schemaRef}`, { $ref: schemaRef });
    const fields = { ...request.body.fields };
    return validate(fields) ? [] : describe(validate.errors, 'body', '');
  }

  private compile(ajv: Ajv, key: string, schema: object): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

function describe(
  errors: ErrorObject[] | null | undefined,
  where: string,
  strip: string,
): ValidationProblem[] {
  return (errors ?? []).map((error) => {
    const path =
      strip && error.instancePath.startsWith(strip)
        ? error.instancePath.slice(strip.length)
        : error.instancePath;
    const extra =
      error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
    return { where: `${where}${path}`, message: `${error.message ?? 'is invalid'}${extra}` };
  });
}
