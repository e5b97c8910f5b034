import type { JsonSchema } from './agent-schemas.js';

/** Smaller parts cost less written out than a reference to them would save. */
const SMALLEST_SHARED_BYTES = 150;

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One schema of one tool, as `tools/list` shows it. */
export interface ToolSchema {
  tool: string;
  /** `input`: the tool's arguments; `output`: its result. */
  kind: 'input' | 'output';
  schema: JsonSchema;
}

interface FirstUse {
  tool: string;
  where: string;
}

/** Where a part sits, by argument and field names: `body.platformOptions`, `data[]`. */
function placeName(kind: ToolSchema['kind'], path: readonly string[]): string {
  const where = path.join('.').replace(/\.\[\]/g, '[]');
  if (kind === 'output') return where === '' ? 'result' : `result's ${where}`;
  return where;
}

/**
 * MCP gives each tool its own schemas, with no definitions shared between tools; yet a post's body
 * is createPost's, validatePost's and, field by field, updatePost's. A part of a schema written out
 * in full by an earlier tool is written once: a later tool's copy keeps its type and description
 * and names where the full schema is (`Same as createPost's body.`). Nothing
 * is lost from the catalog, which an agent reads whole; a copy only loosens what it stands for, so
 * a result still validates against it.
 */
export function shareRepeatedParts(schemas: readonly ToolSchema[]): JsonSchema[] {
  const firstUses = new Map<string, FirstUse>();

  const visit = (entry: ToolSchema, value: unknown, path: readonly string[], isRoot: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => visit(entry, item, path, false));
    if (!isSchema(value)) return value;
    // An input's root lists the tool's arguments, so it stays; a result's may be all shared.
    if (!isRoot || entry.kind === 'output') {
      const text = JSON.stringify(value);
      if (text.length >= SMALLEST_SHARED_BYTES) {
        const first = firstUses.get(`${entry.kind}:${text}`);
        if (first && first.tool !== entry.tool) return referenceTo(value, first);
        if (!first)
          firstUses.set(`${entry.kind}:${text}`, { tool: entry.tool, where: placeName(entry.kind, path) });
      }
    }
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => {
        if (key === 'properties' && isSchema(inner)) {
          return [
            key,
            Object.fromEntries(
              Object.entries(inner).map(([name, property]) => [
                name,
                visit(entry, property, [...path, name], false),
              ]),
            ),
          ];
        }
        if (key === 'items') return [key, visit(entry, inner, [...path, '[]'], false)];
        if (key === 'definitions' && isSchema(inner)) {
          return [
            key,
            Object.fromEntries(
              Object.entries(inner).map(([name, definition]) => [
                name,
                visit(entry, definition, [key, name], false),
              ]),
            ),
          ];
        }
        return [key, visit(entry, inner, path, false)];
      }),
    );
  };

  return schemas.map((entry) => withoutUnusedDefinitions(visit(entry, entry.schema, [], true) as JsonSchema));
}

/** The copy is the same text as the first use, its description included: the first use says it. */
function referenceTo(schema: JsonSchema, first: FirstUse): JsonSchema {
  const description = `Same as ${first.tool}'s ${first.where}.`;
  return { ...(schema.type !== undefined && { type: schema.type }), description };
}

/** A definition only a part now written elsewhere used goes with it. */
function withoutUnusedDefinitions(schema: JsonSchema): JsonSchema {
  const definitions = schema.definitions;
  if (!isSchema(definitions)) return schema;
  const { definitions: _all, ...rest } = schema;
  const text = JSON.stringify(rest);
  const kept = Object.entries(definitions).filter(
    ([name]) =>
      text.includes(`"#/definitions/${name}"`) ||
      JSON.stringify(definitions).includes(`"#/definitions/${name}"`),
  );
  return kept.length > 0 ? { ...rest, definitions: Object.fromEntries(kept) } : rest;
}
