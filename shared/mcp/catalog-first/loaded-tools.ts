import type { ServiceDeps } from '../../runtime/deps.js';
import type { CallableTool } from '../call-tool.js';
import { argumentPlanOf } from '../tool-arguments.js';
import type { McpDeps, ToolModule } from './mcp-deps.js';

export type LoadTool = (name: string) => Promise<ToolModule> | undefined;

/** The tools one handler has loaded: each module once, on its tool's first call, with its argument plan. */
export interface LoadedTools {
  /** The tool of that name, or undefined when there is no such tool. */
  find(name: string): Promise<CallableTool | undefined>;
  /** The dependencies a loaded tool runs with: the core's and its module's parts. */
  depsFor(tool: CallableTool): ServiceDeps;
}

export function makeLoadedTools(loadTool: LoadTool, deps: McpDeps): LoadedTools {
  const loaded = new Map<string, { tool: CallableTool; module: ToolModule }>();
  return {
    async find(name) {
      const cached = loaded.get(name);
      if (cached) return cached.tool;
      const pending = loadTool(name);
      if (!pending) return undefined;
      const module = await pending;
      const tool = { name, operation: module.operation, arguments: argumentPlanOf(module.operation) };
      loaded.set(name, { tool, module });
      return tool;
    },
    depsFor(tool) {
      const module = loaded.get(tool.name)?.module;
      return module ? deps.forTool(module) : deps.core;
    },
  };
}
