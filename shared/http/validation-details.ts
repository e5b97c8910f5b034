// Named imports from zod's core, not `z.core`: reading the namespace object would bundle every
// locale of zod into each function.
import type * as z from 'zod';
import { type $ZodErrorMap, $ZodObject } from 'zod/v4/core';
import type { ValidationDetails } from '../domain/errors.js';
import { unknownNameMessage } from './closest-name.js';

/** A value the schema needs and the request left out, as docs/errors.md and the client promise. */
export const REQUIRED = 'Required';

/** zod's codes for a value that is not there (a union or an enum says so in its own code). */
const MISSING_CODES: ReadonlySet<string> = new Set(['invalid_type', 'invalid_value', 'invalid_union']);

/** The names an object schema takes: what an unknown key is compared with. */
function namesTaken(schema: unknown): string[] {
  return schema instanceof $ZodObject ? Object.keys(schema._zod.def.shape) : [];
}

/**
 * zod's messages where they do not name the fix. A missing value is "Required" (zod 4 says
 * "Invalid input: expected string, received undefined", or only "Invalid input" for a union); an
 * unknown key names the closest one the object takes ("Unknown field `contnet`; did you mean
 * `content`?"). Anything else keeps zod's own message. JSON has no `undefined`, so an undefined
 * input is a key left out, never a value sent.
 */
export const inputErrorMap: $ZodErrorMap = (issue) => {
  if (issue.input === undefined && MISSING_CODES.has(issue.code)) return REQUIRED;
  if (issue.code === 'unrecognized_keys') {
    const taken = namesTaken(issue.inst);
    return issue.keys.map((key) => unknownNameMessage('field', key, taken)).join(' ');
  }
  return undefined;
};

/** `["content", 1, "text"]` → `content[1].text`. */
export function fieldPath(path: readonly PropertyKey[], root: string): string {
  if (path.length === 0) return root;
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/** A zod error as the envelope's `details`: field name → its messages. */
export function toValidationDetails(error: z.ZodError, root: string): ValidationDetails {
  const details: ValidationDetails = {};
  for (const issue of error.issues) {
    const field = fieldPath(issue.path, root);
    details[field] = [...(details[field] ?? []), issue.message];
  }
  return details;
}

export type ParsedInput<Schema extends z.ZodType> =
  | { success: true; data: z.output<Schema> }
  | { success: false; details: ValidationDetails };

/**
 * The one way request input is checked against its schema: the parsed value, or the envelope's
 * `details` under `root` (`params`, `query`, `headers`, `body`, or a parameter's name) in the
 * messages of {@link inputErrorMap}.
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  root: string,
): ParsedInput<Schema> {
  const parsed = schema.safeParse(value, { error: inputErrorMap });
  return parsed.success
    ? { success: true, data: parsed.data }
    : { success: false, details: toValidationDetails(parsed.error, root) };
}
