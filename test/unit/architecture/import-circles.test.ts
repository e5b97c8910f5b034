import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles, importGraph } from '../../support/import-graph.js';

const ROOT = join(import.meta.dirname, '../../..');
/** The service's code and the client's: everything but the tests, scripts and benchmarks. */
const FOLDERS = ['shared', 'infra', 'functions', 'clients/typescript/src'];

describe('import circles', () => {
  it('finds none in the service or the client: a shared type lives where both sides can import it', () => {
    const graph = importGraph(ROOT, FOLDERS);

    // The graph is really read: a file known to import others has its edges.
    expect(graph.size).toBeGreaterThan(400);
    expect(graph.get('shared/runtime/config.ts')).toEqual(
      expect.arrayContaining(['shared/runtime/network-config.ts', 'shared/runtime/config-error.ts']),
    );
    expect(importCircles(graph)).toEqual([]);
  });

  it('reads type-only imports, re-exports and import() as edges, and never a comment or a string', () => {
    const graph = importGraph(join(import.meta.dirname, 'fixtures'), ['circle']);

    expect(Object.fromEntries(graph)).toEqual({
      'circle/a.ts': ['circle/b.ts'],
      'circle/b.ts': ['circle/c.ts'],
      'circle/c.ts': ['circle/a.ts', 'circle/d.ts'],
      'circle/d.ts': ['circle/d.ts'],
      'circle/e.ts': ['circle/a.ts'],
    });
    expect(importCircles(graph)).toEqual([['circle/a.ts', 'circle/b.ts', 'circle/c.ts'], ['circle/d.ts']]);
  });
});
