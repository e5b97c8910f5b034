import type { Reply } from './http.js';

/**
 * One route of a Graph-API-style fake: open (the consent window, the token exchanges) or behind a
 * token that must hold `permissions`. `Open` and `Api` are the fake's two handler contexts.
 */
export type PermissionedRoute<Endpoint extends string, Open, Api> =
  | {
      method: string;
      pattern: RegExp;
      endpoint: Endpoint;
      access: 'open';
      handler: (context: Open) => Reply | Promise<Reply>;
    }
  | {
      method: string;
      pattern: RegExp;
      endpoint: Endpoint;
      access: 'token';
      permissions: readonly string[];
      handler: (context: Api) => Reply | Promise<Reply>;
    };

/** Graph paths may carry a version (`/v23.0/me`); unversioned calls get the oldest Meta serves. */
export const graphPath = (path: string): RegExp => new RegExp(`^(?:/v\\d+\\.\\d+)?${path}$`);

/** The first route with this method whose pattern matches the path, and the path's named groups. */
export function findRoute<R extends { method: string; pattern: RegExp }>(
  routes: readonly R[],
  method: string,
  url: URL,
): { route: R; params: Record<string, string> } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(url.pathname);
    if (match) return { route, params: { ...match.groups } };
  }
  return undefined;
}
