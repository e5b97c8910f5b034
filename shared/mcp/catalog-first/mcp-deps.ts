import type { Operation } from '../../http/operation.js';
import { systemClock } from '../../ports/clock.js';
import { loadConfig } from '../../runtime/config.js';
import type { ServiceDeps } from '../../runtime/deps.js';
import type { DepsPart, DepsParts } from '../../runtime/deps-parts.js';
import { makeCoreDeps, type Observability } from '../../runtime/make-core-deps.js';

/** A tool's module, generated per operation (infra/mcp-entry.ts): the operation and the parts its resources need. */
export interface ToolModule {
  operation: Operation;
  parts: readonly DepsPart[];
}

/** The MCP function's dependencies: DynamoDB's for every request, each part built once, when a tool first needs it. */
export interface McpDeps {
  core: ServiceDeps;
  forTool(tool: ToolModule): ServiceDeps;
}

/**
 * Imported on the first request (the AWS SDK's DynamoDB client is most of what it loads), so a
 * missing setting fails the first request instead of the cold start.
 */
export function makeMcpDeps(observability: Observability): McpDeps {
  const config = loadConfig();
  const core = makeCoreDeps(config, {}, systemClock, observability);
  const context = { config, clock: systemClock, logger: observability.logger };
  const built = new Map<DepsPart, Partial<DepsParts>>();
  const partOf = (part: DepsPart) => {
    let value = built.get(part);
    if (!value) {
      value = part(context);
      built.set(part, value);
    }
    return value;
  };
  return {
    core,
    forTool: (tool) =>
      tool.parts.length === 0 ? core : { ...core, ...Object.assign({}, ...tool.parts.map(partOf)) },
  };
}
