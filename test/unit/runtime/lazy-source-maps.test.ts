import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitBuildOptions } from '../../../infra/constructs/lambda-bundling.js';
import { repoRoot } from '../../../infra/paths.js';

const run = promisify(execFile);

/** A minified bundle whose entry imports the mapper first, as every Lambda entry does, then throws. */
const ENTRY = [
  `import '${join(repoRoot, 'shared/runtime/source-maps-on-error.ts')}';`,
  `import { requireEnv } from '${join(repoRoot, 'shared/runtime/config.ts')}';`,
  '',
  "export const value = requireEnv('BENCH_NEVER_SET');",
  '',
].join('\n');

describe('stack traces of a bundle, mapped on the first error', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'lazy-source-maps-'));
  const bundle = join(scratch, 'index.mjs');
  const entry = join(scratch, 'entry.ts');

  beforeAll(async () => {
    writeFileSync(entry, ENTRY);
    await build({
      entryPoints: [entry],
      bundle: true,
      outfile: bundle,
      platform: 'node',
      format: 'esm',
      minify: true,
      sourcemap: true,
      sourcesContent: false,
      logLevel: 'error',
    });
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const importBundle = async (nodeOptions = '') => {
    const script = `import(${JSON.stringify(`file://${bundle}`)}).catch((error) => console.log(error.stack))`;
    const { stdout } = await run(process.execPath, ['-e', script], {
      env: { PATH: process.env.PATH, NODE_OPTIONS: nodeOptions },
    });
    return stdout;
  };

  it('names the source file and line of each frame of the bundle, without --enable-source-maps', async () => {
    // Act
    const stack = await importBundle();

    // Assess
    expect(stack).toMatch(/^ConfigError: Environment variable BENCH_NEVER_SET is required\./);
    expect(stack).toMatch(/shared\/runtime\/config\.ts:\d+:\d+\)/);
    expect(stack).toMatch(/entry\.ts:4:\d+/);
    expect(stack).not.toContain('index.mjs');
  });

  it('keeps V8’s frames when the map is gone', async () => {
    // Prepare
    rmSync(`${bundle}.map`);

    // Act
    const stack = await importBundle();

    // Assess
    expect(stack).toMatch(/^ConfigError: Environment variable BENCH_NEVER_SET is required\./);
    expect(stack).toContain('index.mjs:');
  });
});

/** A split bundle, as the MCP function's: the entry maps stacks, a chunk loaded by import() throws. */
const SPLIT_ENTRY = [
  `import '${join(repoRoot, 'shared/runtime/source-maps-on-error.ts')}';`,
  '',
  "export const load = () => import('./tool.ts').then((tool) => tool.run());",
  '',
].join('\n');
const SPLIT_TOOL = [
  `import { requireEnv } from '${join(repoRoot, 'shared/runtime/config.ts')}';`,
  '',
  "export const run = () => requireEnv('BENCH_NEVER_SET');",
  '',
].join('\n');

describe('stack traces of a split bundle: each chunk mapped by its own map', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'lazy-source-maps-split-'));
  const out = join(scratch, 'out');

  beforeAll(async () => {
    writeFileSync(join(scratch, 'entry.ts'), SPLIT_ENTRY);
    writeFileSync(join(scratch, 'tool.ts'), SPLIT_TOOL);
    // As the stack builds a split function (the MCP and dashboard functions).
    await build({ ...splitBuildOptions(join(scratch, 'entry.ts'), out), logLevel: 'error' });
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const callTool = async () => {
    const url = `file://${join(out, 'index.mjs')}`;
    const script = `import(${JSON.stringify(url)}).then((m) => m.load()).catch((error) => console.log(error.stack))`;
    const { stdout } = await run(process.execPath, ['-e', script], { env: { PATH: process.env.PATH } });
    return stdout;
  };

  it("names the source file and line of a chunk's frames", async () => {
    // Act
    const stack = await callTool();

    // Assess
    expect(stack).toMatch(/^ConfigError: Environment variable BENCH_NEVER_SET is required\./);
    expect(stack).toMatch(/shared\/runtime\/config\.ts:\d+:\d+\)/);
    expect(stack).toMatch(/tool\.ts:3:\d+/);
    expect(stack).not.toMatch(/chunks\/[^\s]*\.mjs/);
  });

  it('keeps V8’s frames of a chunk whose map is gone', async () => {
    // Prepare
    const chunks = readdirSync(join(out, 'chunks')).filter((file) => file.endsWith('.map'));
    for (const map of chunks) rmSync(join(out, 'chunks', map));

    // Act
    const stack = await callTool();

    // Assess
    expect(stack).toMatch(/^ConfigError: Environment variable BENCH_NEVER_SET is required\./);
    expect(stack).toMatch(/chunks\/tool-\w+\.mjs:/);
  });
});
