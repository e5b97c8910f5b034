import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Each file (repository-relative) and the repository files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

// The project's own resolution (tsconfig.json: Bundler), so `./x.js` finds `./x.ts`.
const RESOLUTION: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  resolveJsonModule: true,
};

/**
 * The import graph of every .ts file under `folders`, read by TypeScript's own scanner
 * (`preProcessFile`: static imports, `import type`, re-exports and `import()`, never a comment or a
 * string) and resolved as the compiler resolves them. Packages and files outside the folders are
 * left out: a circle needs two of ours.
 */
export function importGraph(root: string, folders: readonly string[]): ImportGraph {
  const files = folders.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.split(/[\\/]/).includes('node_modules'))
      .map((file) => resolve(root, folder, file)),
  );
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, RESOLUTION, ts.sys).resolvedModule;
      const target = resolved && resolve(resolved.resolvedFileName);
      if (target && known.has(target)) targets.add(relative(root, target));
    }
    graph.set(relative(root, file), [...targets].sort());
  }
  return graph;
}

/**
 * The graph's circles: each strongly connected component of more than one file, or a file that
 * imports itself (Tarjan's algorithm), its files sorted, the circles in file order.
 */
export function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file) as number, lowLink.get(target) as number));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file) as number, index.get(target) as number));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) circles.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}
