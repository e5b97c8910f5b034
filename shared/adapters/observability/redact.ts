import type { LogFields } from '../../ports/logger.js';

/** Field names whose values are secrets wherever they appear (a key, a token, a webhook secret). */
const SECRET_NAME = /authorization|token|secret|password|api_?key|cookie|signature|credential/i;
const MAX_DEPTH = 6;

/**
 * A copy of `fields` with every secret-named value replaced, however deep: a logged object
 * (an event, an account) can never carry a credential into the logs. Errors keep their shape for
 * the logger's formatter.
 */
export function redactSecrets(fields: LogFields): LogFields {
  return redactValue(fields, 0) as LogFields;
}

function redactValue(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Error) return value;
  if (depth >= MAX_DEPTH) return '[nested]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [
      name,
      SECRET_NAME.test(name) ? '[redacted]' : redactValue(inner, depth + 1),
    ]),
  );
}
