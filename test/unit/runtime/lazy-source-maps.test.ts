import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
