import { join } from 'node:path';
import { writeMcpEntry } from '../infra/mcp-entry.js';
import { operations } from '../shared/operations/registry.js';
import { type SplitBuilt, splitBundle, splitTopInputs } from './split-bundle.js';

/** The MCP function as the stack builds it: its generated entry, split (infra/constructs/lambda-bundling.ts). */
export type McpBuilt = SplitBuilt;

/**
 * Builds the MCP function into `scratch/mcp`, its entry generated into `scratch/mcp-entry` (not
 * node_modules/.cache, which may be another checkout's through a worktree's link).
 */
export function mcpBundle(scratch: string): Promise<McpBuilt> {
  return splitBundle(writeMcpEntry(operations, join(scratch, 'mcp-entry')), join(scratch, 'mcp'));
}

/** The inputs that weigh most in what a cold start loads, by package (or folder of ours): [name, bytes]. */
export function mcpTopInputs(built: McpBuilt, count: number): [string, number][] {
  return splitTopInputs(built, count, (input) =>
    input.includes('/mcp-entry/') ? 'the generated entry (its catalog)' : undefined,
  );
}
