import type { Operation } from '../../http/operation.js';
import type { ApiHandler } from '../../http/operation-handler.js';
import type { ServiceDeps } from '../../runtime/deps.js';
import { isTool } from '../tool-catalog.js';
import { makeCatalogFirstMcpHandler } from './catalog-first-handler.js';
import { buildMcpCatalog } from './mcp-catalog.js';

/**
 * The catalog-first handler over deps a process already has (the local host): the same answers as the Lambda's generated entry, with the catalog
 * built at start instead of at build and every tool's module already loaded.
 */
export function makeInProcessCatalogFirstHandler(
  operations: readonly Operation[],
  deps: ServiceDeps,
): ApiHandler {
  const tools = new Map(operations.filter(isTool).map((operation) => [operation.id, operation]));
  const mcpDeps = { core: deps, forTool: () => deps };
  return makeCatalogFirstMcpHandler({
    catalog: buildMcpCatalog(operations),
    observability: { logger: deps.logger, metrics: deps.metrics },
    loadDeps: () => Promise.resolve(mcpDeps),
    loadTool: (name) => {
      const operation = tools.get(name);
      return operation && Promise.resolve({ operation, parts: [] });
    },
  });
}
