import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../infra/paths.js';
import { DASHBOARD_OPERATION_IDS, isDashboardOperation } from '../../../shared/dashboard/operations-used.js';
import { operations } from '../../../shared/operations/registry.js';

const DASHBOARD_DIR = join(repoRoot, 'shared/dashboard');

/** Every TypeScript file of the dashboard, at any depth. */
function dashboardSources(): { file: string; source: string }[] {
  return readdirSync(DASHBOARD_DIR, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(DASHBOARD_DIR, name))
    .map((file) => ({ file, source: readFileSync(file, 'utf8') }));
}

/** The quoted strings of a source file. */
function stringLiterals(source: string): string[] {
  return [...source.matchAll(/(['"`])([A-Za-z]+)\1/g)].map((match) => match[2] as string);
}

/** `import { a, b as c } from '…/operations/…'`: the module (resolved) and the names it exports. */
function operationImports(file: string, source: string): { module: string; names: string[] }[] {
  return [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']*\/operations\/[^']*)'/g)].map((match) => ({
    module: resolve(dirname(file), (match[2] as string).replace(/\.js$/, '.ts')),
    names: (match[1] as string)
      .split(',')
      .map(
        (name) =>
          name
            .replace(/^\s*type\s+/, '')
            .split(/\s+as\s+/)[0]
            ?.trim() ?? '',
      )
      .filter((name) => name !== ''),
  }));
}

describe('the operations the dashboard runs (its function is granted exactly theirs)', () => {
  it('are operations of the registry, each listed once', () => {
    const registered = new Set(operations.map((operation) => operation.id));
    expect(DASHBOARD_OPERATION_IDS.filter((id) => !registered.has(id))).toEqual([]);
    expect(new Set(DASHBOARD_OPERATION_IDS).size).toBe(DASHBOARD_OPERATION_IDS.length);
  });

  it('include every operation id the dashboard names in a string (what callOperation takes)', () => {
    // Prepare
    const registered = new Set(operations.map((operation) => operation.id));

    // Act
    const named = dashboardSources().flatMap(({ file, source }) =>
      stringLiterals(source)
        .filter((literal) => registered.has(literal))
        .map((id) => ({ file: file.slice(repoRoot.length + 1), id })),
    );

    // Assess
    expect(named.filter(({ id }) => !isDashboardOperation(id))).toEqual([]);
  });

  it('include every operation the dashboard imports to run a variant of (connect returning to the dashboard)', async () => {
    // Prepare
    const imports = dashboardSources().flatMap(({ file, source }) => operationImports(file, source));

    // Act
    const imported: { module: string; id: string }[] = [];
    for (const { module, names } of imports) {
      const exports = (await import(module)) as Record<string, unknown>;
      for (const name of names) {
        const value = exports[name];
        if (typeof value === 'object' && value !== null && 'id' in value && 'handler' in value) {
          imported.push({ module: module.slice(repoRoot.length + 1), id: String(value.id) });
        }
      }
    }

    // Assess
    expect(imported.filter(({ id }) => !isDashboardOperation(id))).toEqual([]);
  });

  it('the checks above see a name that is not listed', () => {
    expect(isDashboardOperation('deleteMedia')).toBe(false);
    expect(stringLiterals("callOperation(c, 'deleteMedia', {})")).toContain('deleteMedia');
    expect(
      operationImports(
        join(DASHBOARD_DIR, 'routes/x.ts'),
        "import { type Foo, deleteMedia as remove } from '../../operations/media/delete-media.js';",
      ),
    ).toEqual([
      { module: join(repoRoot, 'shared/operations/media/delete-media.ts'), names: ['Foo', 'deleteMedia'] },
    ]);
  });
});
