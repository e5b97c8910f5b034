/**
 * `npm run test:localstack [-- vitest options]`: runs test/localstack/ (the AWS adapters against
 * LocalStack) when a LocalStack answers at LOCALSTACK_ENDPOINT (default http://localhost:4566).
 * When none does, it says so on one line and exits 0 without running anything, so the script can
 * sit in any pipeline; the default `npm test` never needs LocalStack.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localstackEndpoint, probeLocalStack } from '../test/localstack/probe.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** vitest's own CLI, run with this Node (no shell, no npx). */
function vitestCli(): string {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve('vitest/package.json');
  const { bin } = require(packageJson) as { bin: { vitest: string } };
  return join(dirname(packageJson), bin.vitest);
}

async function main(): Promise<number> {
  const probe = await probeLocalStack(localstackEndpoint());
  if (!probe.reachable) {
    console.log(
      `LocalStack is not reachable at ${probe.endpoint} (${probe.reason}); skipping the LocalStack suite.`,
    );
    return 0;
  }
  const child = spawn(
    process.execPath,
    [vitestCli(), 'run', '--config', 'vitest.localstack.config.ts', ...process.argv.slice(2)],
    { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, LOCALSTACK_ENDPOINT: probe.endpoint } },
  );
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('test:localstack failed:', error);
    process.exit(1);
  },
);
