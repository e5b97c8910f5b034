/**
 * `npm run lint:cfn`: AWS's CloudFormation linter (cfn-lint, pinned in requirements-ci.txt) on
 * every template the CDK app makes: synthesized into a temporary folder with cdk.json's context
 * and again with every optional setting (scripts/synth-templates.ts), then linted in one run with
 * the repository's .cfnlintrc.yaml (its one suppression says why). Any error or warning fails.
 * Needs Python 3.11+ with `python3 -m pip install -r requirements-ci.txt`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { synthesize, TEMPLATE_VARIANTS, type TemplateVariant } from './synth-templates.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const python = process.env.PYTHON || 'python3';

/** cfn-lint's console entry point, through the interpreter (no reliance on its script being on PATH). */
const CFN_LINT = 'import sys; from cfnlint.runner import main; sys.exit(main())';

async function main(): Promise<number> {
  const root = await mkdtemp(join(tmpdir(), 'cfn-lint-'));
  try {
    // The variants are independent processes: on two cores they take the time of one.
    const started = Date.now();
    const variants = Object.keys(TEMPLATE_VARIANTS) as TemplateVariant[];
    const synthesized = await Promise.all(
      variants.map((variant) => synthesize(join(root, variant), TEMPLATE_VARIANTS[variant])),
    );
    const stacks = synthesized.flat();
    const templates = stacks.map((stack) => stack.templatePath);
    const names = stacks.map((stack) => stack.stackName).join(', ');
    console.log(`synthesized ${names} (${Date.now() - started} ms)`);
    const linting = Date.now();
    const code = await run(python, [
      '-c',
      CFN_LINT,
      '--config-file',
      join(repoRoot, '.cfnlintrc.yaml'),
      '--',
      ...templates,
    ]);
    console.log(
      code === 0
        ? `cfn-lint: ${templates.length} templates, no errors or warnings (${Date.now() - linting} ms)`
        : `cfn-lint found problems (exit ${code}); each is listed above with its rule`,
    );
    return code;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit' });
    child.on('error', (error) =>
      reject(new Error(`${command} could not start (is Python 3.11+ installed?): ${error.message}`)),
    );
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('lint:cfn failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
