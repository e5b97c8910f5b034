import * as z from 'zod';

export type JsonSchema = Record<string, unknown>;

export const COMPONENT_PREFIX = '#/components/schemas/';

/**
 * The bounds zod gives every `z.int()`: the safe-integer range. They restate what `type: integer`
 * means for a JSON number and tell a client nothing, so the document leaves them out.
 */
const NOISE_BOUNDS: Readonly<Record<string, number>> = {
  minimum: Number.MIN_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
};

function withoutNoiseBounds(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key, value]) => NOISE_BOUNDS[key] !== value));
}

/**
 * Rewrites `#/$defs/X` to `#/components/schemas/X`, collecting the definitions as components, and
 * drops the safe-integer bounds wherever they are.
 */
function hoistDefinitions(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const { $defs, $schema: _dialect, ...rest } = schema;
  for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    components[name] = hoistDefinitions(definition, components);
  }
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(withoutNoiseBounds(value as JsonSchema)).map(([key, inner]) =>
          key === '$ref' && typeof inner === 'string'
            ? [key, inner.replace('#/$defs/', COMPONENT_PREFIX)]
            : [key, rewrite(inner)],
        ),
      );
    }
    return value;
  };
  return rewrite(rest) as JsonSchema;
}

/** The JSON Schema of a zod schema, its named definitions moved into `components`. */
export function jsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  components: Record<string, JsonSchema>,
): JsonSchema {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return hoistDefinitions(generated, components);
}
