import type { ToolAnnotations as ListedAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from '../http/operation.js';

/** MCP's tool annotations (hints to the client; the server enforces nothing by them). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export function annotationsOf(operation: Operation): ToolAnnotations {
  const hints = operation.effects ?? {};
  const readOnly = operation.method === 'GET' || hints.readOnly === true;
  return {
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && (operation.method === 'DELETE' || hints.destructive === true),
    idempotentHint:
      readOnly || operation.method === 'PUT' || operation.method === 'DELETE' || hints.idempotent === true,
    openWorldHint: hints.reachesNetwork === true,
  };
}

/** The value MCP gives a hint a tool leaves out (specification, `ToolAnnotations`). */
const MCP_DEFAULTS: Readonly<ToolAnnotations> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/**
 * The hints as `tools/list` shows them: only those that differ from MCP's defaults, and, on a
 * read-only tool, neither destructiveHint nor idempotentHint, which MCP reads only when
 * readOnlyHint is false. A client that applies the specification reads exactly `annotations`.
 */
export function listedAnnotations(annotations: ToolAnnotations): ListedAnnotations {
  const shown = Object.entries(annotations).filter(
    ([hint, value]) =>
      value !== MCP_DEFAULTS[hint as keyof ToolAnnotations] &&
      !(annotations.readOnlyHint && (hint === 'destructiveHint' || hint === 'idempotentHint')),
  );
  return Object.fromEntries(shown);
}
