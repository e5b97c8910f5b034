/**
 * JSON Schemas as an agent reads them in `tools/list`, where every byte is context it pays for
 * before its first call (docs/mcp.md#what-tools-list-costs). The zod schemas stay the source; this
 * only leaves out what tells an agent nothing, and shortens the results' schemas to a summary.
 */

import { ID_PREFIXES } from '../domain/ids.js';

export type JsonSchema = Record<string, unknown>;

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The bounds zod gives every integer: they restate what `type: integer` means for a JSON number. */
const SAFE_INTEGER_BOUNDS: Readonly<Record<string, number>> = {
  minimum: Number.MIN_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
};

/** An id's pattern (common-schemas.ts idOf), by the prefix its description names (`wks_…`). */
const ID_PATTERNS: ReadonlyMap<string, string> = new Map(
  Object.values(ID_PREFIXES).map((prefix) => [`^${prefix}_[0-9A-Za-z]{1,64}$`, `${prefix}_…`]),
);

/** An id's description names its prefix; the rest of its pattern is ours to check, not the agent's. */
function isIdPatternSaidInDescription(schema: JsonSchema): boolean {
  const prefix = typeof schema.pattern === 'string' ? ID_PATTERNS.get(schema.pattern) : undefined;
  return (
    prefix !== undefined && typeof schema.description === 'string' && schema.description.includes(prefix)
  );
}

function definitionName(ref: unknown): string | undefined {
  return typeof ref === 'string' && ref.startsWith('#/definitions/')
    ? ref.slice('#/definitions/'.length)
    : undefined;
}

function countReferences(value: unknown, counts: Map<string, number>): void {
  if (Array.isArray(value)) for (const item of value) countReferences(item, counts);
  else if (isSchema(value)) {
    const name = definitionName(value.$ref);
    if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
    for (const inner of Object.values(value)) countReferences(inner, counts);
  }
}

/**
 * A tool's input, lean: a date-time is `format: date-time` without zod's 400-character pattern
 * (the server still checks it); an id without its pattern when its description names the
 * prefix (`wks_…`: an agent passes ids it was given); an enum without `type: string` (its values
 * say it); `additionalProperties: false` on the arguments only, not again on each object inside
 * one (its properties list what it takes, and the server refuses any other field by name); no
 * safe-integer bounds; a definition used once is written where
 * it is used, and a lone `allOf` wrapper is merged into its owner, so a description sits beside
 * the properties it describes. Every description and every other constraint stays.
 */
export function leanInputSchema(root: JsonSchema): JsonSchema {
  const definitions = (root.definitions ?? {}) as Record<string, JsonSchema>;
  const counts = new Map<string, number>();
  countReferences(root, counts);
  for (const definition of Object.values(definitions)) countReferences(definition, counts);
  const shared = (name: string) => (counts.get(name) ?? 0) > 1;

  const lean = (value: unknown, isRoot = false): unknown => {
    if (Array.isArray(value)) return value.map((item) => lean(item));
    if (!isSchema(value)) return value;
    let schema: JsonSchema = value;
    const name = definitionName(schema.$ref);
    if (name !== undefined && !shared(name) && definitions[name]) {
      const { $ref: _ref, ...siblings } = schema;
      schema = { ...definitions[name], ...siblings };
    }
    const wrapped = schema.allOf;
    if (Array.isArray(wrapped) && wrapped.length === 1 && isSchema(wrapped[0])) {
      const { allOf: _allOf, ...siblings } = schema;
      const inner = lean(wrapped[0]) as JsonSchema;
      // A $ref beside other keywords is ignored by draft-07 readers: keep that one wrapped.
      schema =
        inner.$ref !== undefined && Object.keys(siblings).length > 0
          ? { ...siblings, allOf: [inner] }
          : { ...inner, ...siblings };
    }
    const entries = Object.entries(schema).filter(
      ([key, inner]) =>
        key !== 'definitions' &&
        SAFE_INTEGER_BOUNDS[key] !== inner &&
        !(key === 'pattern' && (schema.format === 'date-time' || isIdPatternSaidInDescription(schema))) &&
        !(key === 'type' && inner === 'string' && Array.isArray(schema.enum)) &&
        !(key === 'additionalProperties' && inner === false && !isRoot) &&
        !(key === 'required' && Array.isArray(inner) && inner.length === 0),
    );
    return Object.fromEntries(
      entries.map(([key, inner]) => [
        key,
        // Property names are names, not keywords: only their schemas are made lean.
        key === 'properties' && isSchema(inner)
          ? Object.fromEntries(Object.entries(inner).map(([name, property]) => [name, lean(property)]))
          : lean(inner),
      ]),
    );
  };

  const leanRoot = lean(root, true) as JsonSchema;
  const kept = Object.entries(definitions).filter(([name]) => shared(name));
  return kept.length > 0
    ? {
        ...leanRoot,
        definitions: Object.fromEntries(kept.map(([name, definition]) => [name, lean(definition)])),
      }
    : leanRoot;
}

/**
 * The keywords a summary keeps: what type a value is, never what else it must satisfy (an enum's
 * values included: the tools' descriptions and arguments name the statuses an agent acts on).
 */
const SUMMARY_KEYWORDS = new Set(['type', 'const', 'properties', 'items', 'anyOf', 'allOf']);

/**
 * A result's schema as a summary: its fields with their types; a field that is
 * an object, or a list of objects, only as such. A page's `data` (`{data, nextCursor}`) is a list
 * of the resource, whose fields are shown as a result's are. No descriptions, bounds, patterns or
 * required lists: the summary only loosens the full schema (whatever the full schema accepts, the
 * summary does), so the SDK's client still validates every result against it. The full schemas,
 * described, are the OpenAPI document's.
 */
export function summarySchema(root: JsonSchema): JsonSchema {
  const definitions = (root.definitions ?? {}) as Record<string, JsonSchema>;
  const summarize = (value: JsonSchema, showFields: boolean, isResult = false): JsonSchema => {
    const name = definitionName(value.$ref);
    const schema = name !== undefined && definitions[name] ? definitions[name] : value;
    const summary: JsonSchema = {};
    for (const [key, inner] of Object.entries(schema)) {
      if (!SUMMARY_KEYWORDS.has(key)) continue;
      if (key === 'properties' && isSchema(inner)) {
        if (!showFields) continue;
        summary.properties = Object.fromEntries(
          Object.entries(inner).map(([field, fieldSchema]) => [
            field,
            summarize(fieldSchema as JsonSchema, isResult && field === 'data'),
          ]),
        );
      } else if (key === 'items' && isSchema(inner)) summary.items = summarize(inner, showFields);
      else if ((key === 'anyOf' || key === 'allOf') && Array.isArray(inner)) {
        summary[key] = (inner as JsonSchema[]).map((branch) => summarize(branch, showFields));
      } else summary[key] = inner;
    }
    return mergedTypes(summary);
  };
  return summarize(root, true, true);
}

const NULL_TYPE: JsonSchema = { type: 'null' };

/**
 * Shorter forms that say the same: `anyOf` of bare types as one `type` list; `anyOf` of one object and null as that object with `type: [object, null]`;
 * a lone `allOf` as its only member.
 */
function mergedTypes(schema: JsonSchema): JsonSchema {
  const { anyOf: branches, allOf: all, ...rest } = schema;
  if (Array.isArray(all) && all.length === 1 && isSchema(all[0]) && branches === undefined) {
    return mergedTypes({ ...rest, ...all[0] });
  }
  if (!Array.isArray(branches) || Object.keys(rest).length > 0 || all !== undefined) return schema;
  const members = branches.filter(isSchema);
  if (members.every((branch) => Object.keys(branch).length === 1 && 'type' in branch)) {
    return { type: [...new Set(members.flatMap((branch) => branch.type as string | string[]))] };
  }
  const nonNull = members.filter((branch) => JSON.stringify(branch) !== JSON.stringify(NULL_TYPE));
  const only = nonNull[0];
  // A const forbids null: only a bare type takes `null` beside it.
  if (
    members.length === 2 &&
    nonNull.length === 1 &&
    only &&
    typeof only.type === 'string' &&
    !('const' in only)
  ) {
    return { ...only, type: [only.type, 'null'] };
  }
  return schema;
}
