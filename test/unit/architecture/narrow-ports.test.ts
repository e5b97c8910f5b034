import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SHARED = join(import.meta.dirname, '../../../shared');
const RUNTIME = join(SHARED, 'runtime');
const SERVICE_DEPS = join(RUNTIME, 'deps.js');
const TENANCY_STORE = join(SHARED, 'ports', 'tenancy-store.js');

/** Every module a file names: static imports and re-exports (types too) and dynamic import()s. */
function importsOf(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((entry) => entry.fileName);
}

function tsFilesUnder(folder: string): string[] {
  return readdirSync(join(SHARED, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(SHARED, folder, file));
}

/** The absolute path a relative import names; undefined for a package. */
function target(file: string, specifier: string): string | undefined {
  return specifier.startsWith('.') ? resolve(dirname(file), specifier) : undefined;
}

const inRuntime = (path: string) => path === RUNTIME || path.startsWith(RUNTIME + sep);

/** `<file> imports '<specifier>'` for each import of `files` that `matches`. */
function offences(files: readonly string[], matches: (path: string) => boolean): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((specifier) => {
        const path = target(file, specifier);
        return path !== undefined && matches(path);
      })
      .map((specifier) => `${relative(SHARED, file)} imports '${specifier}'`),
  );
}

describe('services take what they use', () => {
  it('no file under shared/services imports the composition roots (shared/runtime)', () => {
    // Prepare
    const files = tsFilesUnder('services');

    // Act
    const found = offences(files, inRuntime);

    // Assess
    expect(files.length).toBeGreaterThan(50);
    expect(found).toEqual([]);
  });

  it('no use case, adapter, network or pipeline step takes ServiceDeps (runtime/deps.ts)', () => {
    // Prepare
    const files = ['services', 'adapters', 'networks', 'pipeline/steps', 'triggers'].flatMap(tsFilesUnder);

    // Act
    const found = offences(files, (path) => path === SERVICE_DEPS);

    // Assess
    expect(files.length).toBeGreaterThan(150);
    expect(found).toEqual([]);
  });

  it('a use case takes the tenancy ports it uses, not the whole tenancy store; only admin manages all four', () => {
    // Prepare
    const files = tsFilesUnder('services').filter(
      (file) => relative(SHARED, file) !== join('services', 'admin.ts'),
    );

    // Act
    const found = offences(files, (path) => path === TENANCY_STORE);

    // Assess
    expect(found).toEqual([]);
  });

  it('tells a composition-root import apart from a port or a sibling', () => {
    const file = join(SHARED, 'services', 'accounts', 'start-connect.ts');
    expect(offences([file], inRuntime)).toEqual([]);
    expect(inRuntime(resolve(dirname(file), '../../runtime/deps.js'))).toBe(true);
    expect(inRuntime(resolve(dirname(file), '../../runtime/network-config.js'))).toBe(true);
    expect(inRuntime(resolve(dirname(file), '../../ports/app-credentials.js'))).toBe(false);
    expect(inRuntime(resolve(dirname(file), './callback-url.js'))).toBe(false);
    expect(resolve(dirname(file), '../../runtime/deps.js')).toBe(SERVICE_DEPS);
    expect(resolve(dirname(file), '../../ports/tenancy-store.js')).toBe(TENANCY_STORE);
  });
});
