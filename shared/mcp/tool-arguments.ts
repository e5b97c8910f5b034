import type { Operation } from '../http/operation.js';

/** `workspace_id` → `workspaceId`, `idempotency-key` → `idempotencyKey`. */
export function camelCase(name: string): string {
  return name.replace(/[-_]+([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** Where each argument of an operation's tool goes in the operation's request. */
export interface ArgumentPlan {
  /** Argument name → path parameter name. */
  params: ReadonlyMap<string, string>;
  /** Argument name → query parameter name (the same). */
  query: ReadonlyMap<string, string>;
  /** Argument name → lower-case header name. */
  headers: ReadonlyMap<string, string>;
  /** The argument that carries the body, when the operation takes one. */
  body?: 'body';
}

/**
 * A tool's arguments are one flat object: each path parameter and header under its camelCase
 * name (`workspaceId`, `postId`, `idempotencyKey`), each query parameter under its own name, and
 * the JSON body, when there is one, under `body`. Two parts naming the same argument would make
 * the tool ambiguous, so that is refused when the catalog is built, never at call time.
 */
export function argumentPlanOf(operation: Operation): ArgumentPlan {
  const { params, query, headers, body } = operation.schemas;
  const taken = new Set<string>();
  const claim = (argument: string) => {
    if (taken.has(argument)) {
      throw new Error(`Operation ${operation.id}: two inputs would be the tool argument "${argument}".`);
    }
    taken.add(argument);
    return argument;
  };
  const plan: ArgumentPlan = {
    params: new Map(Object.keys(params.shape).map((name) => [claim(camelCase(name)), name])),
    query: new Map(Object.keys(query.shape).map((name) => [claim(name), name])),
    headers: new Map(Object.keys(headers?.shape ?? {}).map((name) => [claim(camelCase(name)), name])),
    ...(body && { body: claim('body') as 'body' }),
  };
  return plan;
}

/** The parts of an operation request that a tool call's arguments fill. */
export interface RequestParts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
  /** Arguments the tool does not have. */
  unknown: string[];
}

export function splitArguments(plan: ArgumentPlan, args: Readonly<Record<string, unknown>>): RequestParts {
  const parts: RequestParts = { params: {}, query: {}, headers: {}, body: undefined, unknown: [] };
  for (const [argument, value] of Object.entries(args)) {
    const param = plan.params.get(argument);
    const query = plan.query.get(argument);
    const header = plan.headers.get(argument);
    if (param !== undefined) parts.params[param] = value;
    else if (query !== undefined) parts.query[query] = value;
    else if (header !== undefined) parts.headers[header] = value;
    else if (plan.body === argument) parts.body = value;
    else parts.unknown.push(argument);
  }
  return parts;
}
