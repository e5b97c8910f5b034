import type { Problems } from './calendar-error.js';

/** A JSON/YAML mapping (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `posts[3]` + `at` → `posts[3].at`; the root has no prefix. */
export function childPath(path: string, field: string | number): string {
  if (typeof field === 'number') return `${path}[${field}]`;
  return path === '' ? field : `${path}.${field}`;
}

/** Refuses fields the file format does not have: a typo (`scheduledAt`, `acountId`) must not pass silently. */
export function refuseUnknownFields(
  value: Record<string, unknown>,
  known: readonly string[],
  path: string,
  problems: Problems,
): void {
  for (const field of Object.keys(value)) {
    if (!known.includes(field)) {
      problems.add(childPath(path, field), `unknown field (expected one of: ${known.join(', ')})`);
    }
  }
}

interface StringRule {
  required?: boolean;
  pattern?: RegExp;
  /** What the pattern asks for, for the message. */
  expected?: string;
}

/** A string field; records a problem and answers undefined when it is absent-but-required or wrong. */
export function readString(
  value: Record<string, unknown>,
  field: string,
  path: string,
  problems: Problems,
  rule: StringRule = {},
): string | undefined {
  const raw = value[field];
  const at = childPath(path, field);
  if (raw === undefined || raw === null) {
    if (rule.required) problems.add(at, 'required');
    return undefined;
  }
  if (typeof raw !== 'string') {
    problems.add(at, `must be a string (got ${describeType(raw)}; quote it in YAML)`);
    return undefined;
  }
  if (rule.pattern !== undefined && !rule.pattern.test(raw)) {
    problems.add(at, `"${raw}" is not ${rule.expected ?? `matching ${rule.pattern.source}`}`);
    return undefined;
  }
  return raw;
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : `${typeof value} ${String(value)}`;
}
