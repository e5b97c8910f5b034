import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';

type Frame = NodeJS.CallSite;

function headerOf(error: Error): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}

/**
 * Stack traces of a Lambda bundle, mapped to the sources (`shared/…/file.ts:line:column`), with the
 * source map read and parsed only when a stack is first formatted: an error printed. Node's
 * `--enable-source-maps` reads and parses every loaded bundle's map at load, on every cold start,
 * for errors most starts never print. Frames of other files, and a bundle whose map is missing,
 * keep V8's own text. Does nothing outside a bundle (`.mjs`): the local host and the tests run the
 * sources themselves.
 */
export function mapStacksOnFirstError(bundleUrl: string): void {
  if (!bundleUrl.startsWith('file:') || !bundleUrl.endsWith('.mjs')) return;
  const bundlePath = fileURLToPath(bundleUrl);
  let map: SourceMap | null | undefined;
  const loadMap = (): SourceMap | null => {
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${bundlePath}.map`, 'utf8')) as SourceMapPayload);
      } catch {
        map = null;
      }
    }
    return map;
  };
  const mapped = (frame: Frame): string => {
    const file = frame.getFileName();
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if ((file !== bundleUrl && file !== bundlePath) || line === null || column === null) return `${frame}`;
    const entry = loadMap()?.findEntry(line - 1, column - 1);
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
