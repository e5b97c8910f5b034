import type { Context, MiddlewareHandler } from 'hono';
import { loadOnce } from '../runtime/load-once.js';
import type { DashboardDeps, DashboardEnv, DashboardInput, DashboardStart } from './env.js';

/**
 * The app's start from what it is given: the local host's deps, already built, as a start whose
 * loader answers them; the Lambda's start with its loader run once (loadOnce).
 */
export function startOf(input: DashboardInput): DashboardStart {
  if ('loadDeps' in input) return { ...input, loadDeps: loadOnce(input.loadDeps) };
  const { secureCookies, mediaStorageOrigin, logger } = input;
  return {
    secureCookies,
    ...(mediaStorageOrigin && { mediaStorageOrigin }),
    logger,
    loadDeps: async () => input,
  };
}

/** The deps, built if this request is the first of the instance to need them; set for what follows. */
export async function depsOf(c: Context<DashboardEnv>): Promise<DashboardDeps> {
  const loaded = c.get('deps');
  if (loaded) return loaded;
  const deps = await c.get('loadDeps')();
  c.set('deps', deps);
  return deps;
}

/** Sets `deps` before what follows: the public forms that sign in, and every page behind sign-in. */
export const withDeps: MiddlewareHandler<DashboardEnv> = async (c, next) => {
  await depsOf(c);
  await next();
};
