/**
 * The Nodes the cold-start proxy runs bundles on: the one running the bench (Node 20, CI's) and
 * Node 22, which Lambda runs (nodejs22.x). Node 22 is `BENCH_NODE22` when set, or else the npm
 * registry's `node` package at the version .ci/run pins, installed once into
 * node_modules/.cache/bench-node22 (never on PATH: only the bench's children run it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../infra/paths.js';

export interface BenchNode {
  /** How the tables name it: `Node 20`, `Node 22`. */
  label: string;
  /** `process.version` of that binary, e.g. `v22.23.3`. */
  version: string;
  execPath: string;
}

/** Where the bench installs Node 22 when BENCH_NODE22 does not name one. */
export const NODE22_CACHE_DIR = join(repoRoot, 'node_modules/.cache/bench-node22');

/** The `node@22.x.y` that .ci/run installs, so that the bench and CI's second test run use one Node 22. */
export function pinnedNode22Version(ciScript: string): string {
  const match = /\bnode@(22\.\d+\.\d+)\b/.exec(ciScript);
  if (!match?.[1]) throw new Error('.ci/run no longer pins node@22.x.y; bench/bench-node.ts reads it there.');
  return match[1];
}

/** What resolving Node 22 touches, injected so that a test drives it without a registry. */
export interface Node22Resolver {
  /** BENCH_NODE22. */
  override: string | undefined;
  pinnedVersion: string;
  cacheDir: string;
  exists: (path: string) => boolean;
  /** The binary's `--version`. */
  versionOf: (execPath: string) => string;
  /** `npm install` of `node@version` into `prefix`. */
  install: (prefix: string, version: string) => void;
}

/**
 * BENCH_NODE22 if set (any 22.x: the tables print its version), else the cached install if it is
 * the pinned version, else a fresh install of the pinned version. Anything but a Node 22 throws:
 * a row labelled 22 must have run on 22.
 */
export function resolveNode22(resolver: Node22Resolver): BenchNode {
  const check = (execPath: string): BenchNode => {
    const version = resolver.versionOf(execPath);
    if (!version.startsWith('v22.')) throw new Error(`${execPath} is Node ${version}, not Node 22.`);
    return { label: 'Node 22', version, execPath };
  };
  if (resolver.override) return check(resolver.override);
  const execPath = join(resolver.cacheDir, 'node_modules/node/bin/node');
  const wanted = `v${resolver.pinnedVersion}`;
  if (!resolver.exists(execPath) || resolver.versionOf(execPath) !== wanted) {
    resolver.install(resolver.cacheDir, resolver.pinnedVersion);
  }
  const node = check(execPath);
  if (node.version !== wanted) throw new Error(`${execPath} is ${node.version} after installing ${wanted}.`);
  return node;
}

function npmInstallNode(prefix: string, version: string): void {
  console.error(
    `Installing Node ${version} for the cold starts into ${prefix} (once; BENCH_NODE22 names another)…`,
  );
  // As .ci/run installs it; --prefer-offline: npm's cache answers when an earlier install filled it.
  execFileSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--prefix',
      prefix,
      `node@${version}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

/** Node 22 for the bench's children (see resolveNode22). */
export function node22(): BenchNode {
  return resolveNode22({
    override: process.env.BENCH_NODE22 || undefined,
    pinnedVersion: pinnedNode22Version(readFileSync(join(repoRoot, '.ci/run'), 'utf8')),
    cacheDir: NODE22_CACHE_DIR,
    exists: existsSync,
    versionOf: (execPath) => execFileSync(execPath, ['--version'], { encoding: 'utf8' }).trim(),
    install: npmInstallNode,
  });
}

/** The Node running the bench (CI's Node 20). */
export function currentNode(): BenchNode {
  return {
    label: `Node ${process.versions.node.split('.')[0]}`,
    version: process.version,
    execPath: process.execPath,
  };
}
