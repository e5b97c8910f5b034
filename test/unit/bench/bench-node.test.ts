import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Node22Resolver, pinnedNode22Version, resolveNode22 } from '../../../bench/bench-node.js';
import { repoRoot } from '../../../infra/paths.js';

const CACHE_DIR = '/cache/bench-node22';
const CACHED_BINARY = join(CACHE_DIR, 'node_modules/node/bin/node');

/** A resolver whose binaries answer `versions[path]`; its install adds the cached binary there. */
function fakeResolver(overrides: Partial<Node22Resolver>, versions: Record<string, string>) {
  const installed: string[] = [];
  const resolver: Node22Resolver = {
    override: undefined,
    pinnedVersion: '22.23.3',
    cacheDir: CACHE_DIR,
    exists: (path) => path in versions,
    versionOf: (path) => versions[path] ?? 'missing',
    install: (prefix, version) => {
      installed.push(`${prefix} ${version}`);
      versions[join(prefix, 'node_modules/node/bin/node')] = `v${version}`;
    },
    ...overrides,
  };
  return { resolver, installed };
}

describe('pinnedNode22Version', () => {
  it('reads the Node 22 that .ci/run installs', () => {
    const version = pinnedNode22Version(readFileSync(join(repoRoot, '.ci/run'), 'utf8'));
    expect(version).toMatch(/^22\.\d+\.\d+$/);
  });

  it('throws when the script pins no node@22', () => {
    expect(() => pinnedNode22Version('npm install node@20.1.0')).toThrow(/no longer pins/);
  });
});

describe('resolveNode22', () => {
  it('takes BENCH_NODE22 as given, any 22.x, without installing', () => {
    const { resolver, installed } = fakeResolver({ override: '/opt/node22' }, { '/opt/node22': 'v22.1.0' });
    expect(resolveNode22(resolver)).toEqual({
      label: 'Node 22',
      version: 'v22.1.0',
      execPath: '/opt/node22',
    });
    expect(installed).toEqual([]);
  });

  it('refuses a BENCH_NODE22 that is not Node 22', () => {
    const { resolver } = fakeResolver({ override: '/usr/bin/node' }, { '/usr/bin/node': 'v20.20.2' });
    expect(() => resolveNode22(resolver)).toThrow(/not Node 22/);
  });

  it('installs the pinned version once, then reuses it', () => {
    const versions: Record<string, string> = {};
    const { resolver, installed } = fakeResolver({}, versions);
    expect(resolveNode22(resolver).execPath).toBe(CACHED_BINARY);
    expect(resolveNode22(resolver).version).toBe('v22.23.3');
    expect(installed).toEqual(['/cache/bench-node22 22.23.3']);
  });

  it('reinstalls when the cached Node is not the pinned version', () => {
    const { resolver, installed } = fakeResolver({}, { [CACHED_BINARY]: 'v22.20.0' });
    expect(resolveNode22(resolver).version).toBe('v22.23.3');
    expect(installed).toEqual(['/cache/bench-node22 22.23.3']);
  });

  it('throws when the install does not leave the pinned version', () => {
    const { resolver } = fakeResolver({ install: () => undefined }, {});
    expect(() => resolveNode22(resolver)).toThrow(/not Node 22/);
  });
});
