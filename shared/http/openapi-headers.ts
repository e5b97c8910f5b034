/**
 * The response headers the document names, as `components.headers`; responses refer to them, so
 * each is described once. docs/api-decisions.md (Errors, Idempotency, Rate limits) says when each is sent.
 */
export const HEADER_COMPONENTS = {
  'X-Request-Id': {
    schema: { type: 'string' },
    description: 'Correlation id of the request: on every response; quote it when reporting a problem.',
  },
  'X-RateLimit-Limit': {
    schema: { type: 'integer', minimum: 1 },
    description: "Requests per minute in this operation's family, for this tenant's plan.",
  },
  'X-RateLimit-Remaining': {
    schema: { type: 'integer', minimum: 0 },
    description: 'Requests left in the current minute.',
  },
  'X-RateLimit-Reset': {
    schema: { type: 'integer', minimum: 0 },
    description: 'Unix time (seconds) when the window resets.',
  },
  'Retry-After': {
    schema: { type: 'integer', minimum: 0 },
    description: 'Whole seconds to wait before trying again.',
  },
  'Idempotent-Replayed': {
    schema: { type: 'string', enum: ['true'] },
    description:
      'Present (true) when this answer replays the first answer to the same Idempotency-Key (same status and body); absent on the first answer.',
  },
} as const;

export type HeaderName = keyof typeof HEADER_COMPONENTS;

/** References to the named header components, keyed by header name, for a response's `headers`. */
export function headerRefs(...names: readonly HeaderName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

export const RATE_LIMIT_HEADERS: readonly HeaderName[] = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];
