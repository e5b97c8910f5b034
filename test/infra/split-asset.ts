import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';

/** A function's asset built with code splitting (infra/constructs/lambda-bundling.ts), as a test reads it. */
export interface SplitAsset {
  /** Every `.mjs`: `index.mjs` and `chunks/…`. */
  files: string[];
  /** What a cold start loads: the entry and the chunks it imports statically, not import(…)'s. */
  coldFiles: Set<string>;
  /** The sources the maps of `files` name. */
  sourcesOf(files: Iterable<string>): Promise<string[]>;
}

/** Reads the asset in `dir`: its files, the static closure of `index.mjs`, and the maps' sources. */
export async function readSplitAsset(dir: string): Promise<SplitAsset> {
  const coldFiles = new Set<string>();
  const visit = async (file: string): Promise<void> => {
    if (coldFiles.has(file)) return;
    coldFiles.add(file);
    const text = await readFile(join(dir, file), 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.mjs)"/g))
      await visit(posix.normalize(posix.join(posix.dirname(file), specifier as string)));
  };
  await visit('index.mjs');
  const files = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith('.mjs'));
  const sourcesOf = async (some: Iterable<string>) => {
    const maps = [...some].map(async (file) => {
      const map = JSON.parse(await readFile(join(dir, `${file}.map`), 'utf8')) as { sources: string[] };
      return map.sources;
    });
    return (await Promise.all(maps)).flat();
  };
  return { files, coldFiles, sourcesOf };
}
