import type { HttpMethod, Operation } from './operation.js';

export type RouteMatch =
  | { kind: 'found'; operation: Operation; pathParameters: Record<string, string> }
  | { kind: 'wrong_method'; allowed: HttpMethod[] }
  | { kind: 'not_found' };

interface CompiledRoute {
  operation: Operation;
  pattern: RegExp;
  names: string[];
}

/** `/v1/workspaces/{workspace_id}` → a pattern whose groups are the parameters (one segment each). */
function compile(operation: Operation): CompiledRoute {
  const names: string[] = [];
  const source = operation.path
    .split('/')
    .map((segment) => {
      const param = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(segment);
      if (!param?.[1]) return segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { operation, pattern: new RegExp(`^${source}/?$`), names };
}

/** Literal segments before parameters, position by position: `/x/special` is tried before `/x/{id}`. */
function moreSpecificFirst(a: CompiledRoute, b: CompiledRoute): number {
  const left = a.operation.path.split('/');
  const right = b.operation.path.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const leftIsParam = left[i]?.startsWith('{') ?? false;
    const rightIsParam = right[i]?.startsWith('{') ?? false;
    if (leftIsParam !== rightIsParam) return leftIsParam ? 1 : -1;
  }
  return 0;
}

/**
 * Maps a method and path to an operation, as API Gateway does in AWS (the most specific route wins). The local host routes with
 * it, and the catch-all function uses it to tell an unknown path (404) from a wrong method (405).
 */
export function makeRouteMatcher(operations: readonly Operation[]) {
  const routes = operations.map(compile).sort(moreSpecificFirst);
  return (method: string, path: string): RouteMatch => {
    const allowed: HttpMethod[] = [];
    for (const route of routes) {
      const match = route.pattern.exec(path);
      if (!match) continue;
      if (route.operation.method !== method.toUpperCase()) {
        if (!allowed.includes(route.operation.method)) allowed.push(route.operation.method);
        continue;
      }
      let pathParameters: Record<string, string>;
      try {
        pathParameters = Object.fromEntries(
          route.names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]),
        );
      } catch {
        return { kind: 'not_found' };
      }
      return { kind: 'found', operation: route.operation, pathParameters };
    }
    return allowed.length > 0 ? { kind: 'wrong_method', allowed } : { kind: 'not_found' };
  };
}
