import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

type Frame = NodeJS.CallSite;

function headerOf(error: Error): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}

/** A frame's file as a path (ESM frames name a `file:` URL); node's own (`node:…`) stay as they are. */
function pathOf(file: string | null | undefined): string | undefined {
  if (!file?.startsWith('file:')) return file ?? undefined;
  try {
    return fileURLToPath(file);
  } catch {
    return undefined;
  }
}

/**
 * Stack traces of a Lambda bundle, mapped to the sources (`shared/…/file.ts:line:column`), with
 * each file's source map read and parsed only when a stack with a frame of that file is first
 * formatted: an error printed. Node's `--enable-source-maps` reads and parses every loaded
 * bundle's map at load, on every cold start, for errors most starts never print. The files mapped
 * are the bundle's `.mjs` files: the entry and, for a function built with code splitting (the MCP
 * function), the chunks beside it or below it (`chunks/…`), each by its own map. Frames of other
 * files, and a file whose map is missing, keep V8's own text. Does nothing outside a bundle
 * (`.mjs`): the local host and the tests run the sources themselves.
 */
export function mapStacksOnFirstError(bundleUrl: string): void {
  if (!bundleUrl.startsWith('file:') || !bundleUrl.endsWith('.mjs')) return;
  const root = `${dirname(fileURLToPath(bundleUrl))}${sep}`;
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (path: string): SourceMap | null => {
    let map = maps.get(path);
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')) as SourceMapPayload);
      } catch {
        map = null;
      }
      maps.set(path, map);
    }
    return map;
  };
  const mapped = (frame: Frame): string => {
    const path = pathOf(frame.getFileName());
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if (!path?.startsWith(root) || !path.endsWith('.mjs') || line === null || column === null)
      return `${frame}`;
    const entry = mapOf(path)?.findEntry(line - 1, column - 1);
    if (!entry || !('originalSource' in entry)) return `${frame}`;
    // The map names sources relative to where the bundle was built: the repository's own path is what tells.
    const source = entry.originalSource.replace(/^(\.\.?\/)+/, '');
    const where = `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    const name = frame.getFunctionName();
    return name ? `${name} (${where})` : where;
  };
  Error.prepareStackTrace = (error: Error, frames: Frame[]) =>
    [headerOf(error), ...frames.map((frame) => `    at ${mapped(frame)}`)].join('\n');
}
