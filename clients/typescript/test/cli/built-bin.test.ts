import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

interface PackageJson {
  bin: Record<string, string>;
}

/**
 * The bin as `npx social-calendar` runs it from an installed package: the package's own build
 * (tsc with tsconfig.build.json), run by node with no TypeScript loader.
 */
describe('the social-calendar bin, built', () => {
  let root: string;
  let outDir: string;

  beforeAll(async () => {
    // Outside the repository (no other test sees the build), its imports resolved from the
    // repository's node_modules as an installed package's are from its own.
    root = mkdtempSync(join(tmpdir(), 'social-calendar-bin-'));
    symlinkSync(join(PACKAGE_DIR, '../../node_modules'), join(root, 'node_modules'), 'dir');
    outDir = join(root, 'dist');
    await run(process.execPath, [
      join(PACKAGE_DIR, '../../node_modules/typescript/bin/tsc'),
      '-p',
      join(PACKAGE_DIR, 'tsconfig.build.json'),
      '--outDir',
      outDir,
    ]);
  }, 120_000);
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('is the file package.json names, starts with a node shebang, and answers --help', async () => {
    const { bin } = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as PackageJson;
    expect(bin['social-calendar']).toBe('dist/cli/main.js');
    const main = join(outDir, 'cli/main.js');
    expect(readFileSync(main, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    const { stdout } = await run(process.execPath, [main, '--help']);
    expect(stdout).toContain('social-calendar pull');
    expect(stdout).toContain('SOCIAL_PUBLISHING_API_KEY');
  });

  it('exits 1 with a plain message, not a stack, when it lacks the service', async () => {
    const failure = await run(process.execPath, [join(outDir, 'cli/main.js'), 'plan', 'calendar.yaml'], {
      env: { PATH: process.env.PATH ?? '' },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain('SOCIAL_PUBLISHING_URL');
    expect((failure as { stderr: string }).stderr).not.toMatch(/\n\s+at /);
  });
});
