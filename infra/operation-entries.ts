import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { buildSync } from 'esbuild';
import type { Operation, OperationResource } from '../shared/http/operation.js';
import { repoRoot } from './paths.js';

/**
 * Each operation's Lambda gets its own entry file, generated at synth from the registry, that
 * imports that operation's module and nothing else: esbuild then bundles only the code the
 * operation runs, instead of every operation and every adapter (docs/deploy.md, "Cold starts and
 * bundle sizes"). Nothing here is kept by hand: the modules are found by identity in the
 * registry's own exports, and the adapters by the operation's `resources`, which also decide its
 * grants (infra/constructs/http-api.ts).
 */

const OPERATIONS_DIR = join(repoRoot, 'shared/operations');
const REGISTRY = join(OPERATIONS_DIR, 'registry.ts');

/** Where the generated entries go: a cache, not sources (node_modules is never committed). */
export const GENERATED_ENTRIES_DIR = join(repoRoot, 'node_modules/.cache/operation-entries');

/** The module (relative to the repository root) that exports an operation, and the export's name. */
export interface OperationModule {
  file: string;
  exportName: string;
}

/**
 * The part of the dependencies (shared/runtime/*-part.ts) that each kind of resource needs. A
 * record over the union, as RESOURCE_GRANTS: a new kind does not compile until it is mapped.
 */
export const RESOURCE_PARTS: Record<OperationResource, { module: string; exportName: string } | undefined> = {
  'idempotency-table': undefined,
  'media-upload': { module: 'shared/runtime/s3-storage-part.ts', exportName: 's3StoragePart' },
  'media-read': { module: 'shared/runtime/s3-storage-part.ts', exportName: 's3StoragePart' },
  'media-delete': { module: 'shared/runtime/s3-storage-part.ts', exportName: 's3StoragePart' },
  'secrets-encrypt': { module: 'shared/runtime/kms-secrets-part.ts', exportName: 'kmsSecretsPart' },
  'oauth-tokens-encrypt': { module: 'shared/runtime/kms-secrets-part.ts', exportName: 'kmsSecretsPart' },
  'oauth-tokens-decrypt': { module: 'shared/runtime/kms-secrets-part.ts', exportName: 'kmsSecretsPart' },
  'network-apps': { module: 'shared/runtime/network-apps-part.ts', exportName: 'networkAppsPart' },
};

let discovered: ReadonlyMap<string, OperationModule> | undefined;

/**
 * Which module exports each operation of the registry, by operation id. Found by bundling the
 * registry with every module under shared/operations and comparing the registry's entries with
 * their exports (one esbuild run and one evaluation per process, synchronous as CDK constructs are).
 * An operation no module exports (the OpenAPI document's, which the registry builds from itself) is
 * absent: its entry imports the registry.
 */
export function operationModules(): ReadonlyMap<string, OperationModule> {
  if (discovered) return discovered;
  const files = (readdirSync(OPERATIONS_DIR, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && join(OPERATIONS_DIR, file) !== REGISTRY)
    .map((file) => relative(repoRoot, join(OPERATIONS_DIR, file)).split('\\').join('/'))
    .sort();
  const contents = [
    `import { operations } from './${relative(repoRoot, REGISTRY)}';`,
    ...files.map((file, i) => `import * as m${i} from './${file}';`),
    `const modules = [${files.map((file, i) => `[${JSON.stringify(file)}, m${i}]`).join(', ')}];`,
    'const found = {};',
    'for (const operation of operations)',
    '  for (const [file, exports] of modules)',
    '    for (const [exportName, value] of Object.entries(exports))',
    '      if (value === operation) found[operation.id] = { file, exportName };',
    'module.exports = found;',
  ].join('\n');
  const { outputFiles } = buildSync({
    stdin: { contents, resolveDir: repoRoot, sourcefile: 'operation-modules.js', loader: 'js' },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });
  const code = outputFiles?.[0]?.text ?? '';
  const module = { exports: {} as Record<string, OperationModule> };
  // The operations' modules only define objects and schemas: evaluating them here is as safe as importing them.
  new Function('module', 'exports', 'require', code)(module, module.exports, createRequire(REGISTRY));
  discovered = new Map(Object.entries(module.exports));
  return discovered;
}

/** An import specifier from the generated entry's folder to a repository file, as the sources write it (`.js`). */
export function importPath(fromDir: string, repoFile: string): string {
  const path = relative(fromDir, join(repoRoot, repoFile)).split('\\').join('/');
  return (path.startsWith('.') ? path : `./${path}`).replace(/\.ts$/, '.js');
}

/** The parts of the dependencies an operation's resources need: export name → module. */
export function partsOf(operation: Operation): ReadonlyMap<string, string> {
  const parts = new Map<string, string>();
  for (const resource of operation.resources ?? []) {
    const part = RESOURCE_PARTS[resource];
    if (part) parts.set(part.exportName, part.module);
  }
  return parts;
}

/**
 * The lines that make `operation` the generated module's `operation`: its own module's export, or,
 * for an operation no module of the registry exports (a test's own), the registry's by id.
 */
export function operationImportSource(operation: Operation, fromDir: string): string {
  const module = operationModules().get(operation.id);
  const at = (file: string) => importPath(fromDir, file);
  return module
    ? `import { ${module.exportName} as operation } from '${at(module.file)}';`
    : `import { operationById } from '${at('shared/operations/registry.ts')}';\nconst operation = operationById(${JSON.stringify(operation.id)});`;
}

/** The source of an operation's entry: its module, the parts its resources need, the REST handler. */
export function operationEntrySource(operation: Operation, fromDir: string): string {
  const parts = partsOf(operation);
  const at = (file: string) => importPath(fromDir, file);
  const operationImport = operationImportSource(operation, fromDir);
  return [
    `// Generated by infra/operation-entries.ts for ${operation.id} (${operation.method} ${operation.path}); do not edit.`,
    `import '${at('shared/runtime/source-maps-on-error.ts')}';`,
    `import { makeOperationHandler } from '${at('shared/http/operation-handler.ts')}';`,
    `import { makeDepsFromEnv } from '${at('shared/runtime/make-core-deps.ts')}';`,
    ...[...parts].map(([exportName, file]) => `import { ${exportName} } from '${at(file)}';`),
    operationImport,
    '',
    `export const handler = makeOperationHandler(operation, makeDepsFromEnv([${[...parts.keys()].join(', ')}]));`,
    '',
  ].join('\n');
}

/** Writes the operation's entry (unless it is already there, unchanged) and returns its path. */
export function writeOperationEntry(operation: Operation, dir: string = GENERATED_ENTRIES_DIR): string {
  const file = join(dir, `${operation.id}.ts`);
  const source = operationEntrySource(operation, dirname(file));
  mkdirSync(dir, { recursive: true });
  writeIfChanged(file, source);
  return file;
}

/**
 * Writes a generated file unless it is already there, unchanged: written aside then renamed, as
 * another synth (a parallel test) may be bundling the same file.
 */
export function writeIfChanged(file: string, source: string): void {
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === source) return;
  const aside = `${file}.${process.pid}.tmp`;
  writeFileSync(aside, source);
  renameSync(aside, file);
}
