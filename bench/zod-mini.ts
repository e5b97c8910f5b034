/**
 * Issue 32, item 3: would zod's `zod/mini` make the request path lighter? Printed by
 * `npm run bench:bundles` (and alone: `npx tsx bench/zod-mini.ts`).
 *
 * 1. What zod weighs in a real operation's bundle, from esbuild's metafile of the operation as CDK
 *    builds it (bench/bundles.ts' cdkBuildOptions): `zod/v4/core` (the parsers, the checks, the JSON
 *    Schema generator; `zod/mini` is built on the same core), `zod/v4/classic` (the method-chaining
 *    API we write, the part `zod/mini` replaces) and the English messages (`zod/v4/locales`).
 * 2. The same schemas written both ways (bench/zod-mini-schemas/), each bundled alone with the
 *    functions' esbuild options, its size and its import in a fresh Node (median of runs), and
 *    whether both give the same error details for the same bad input. `zod/mini` has no messages
 *    until a locale is configured ("Invalid input" for everything), and our error envelope carries
 *    zod's messages (shared/http/validation-details.ts), so the mini variant configures English.
 *
 * Not a test: nothing is asserted.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { LAMBDA_BUILD_OPTIONS } from '../infra/constructs/lambda-bundling.js';
import { repoRoot } from '../infra/paths.js';
import { runBenchmark } from './support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3) * 3;
/** The operation whose bundle is weighed: the smallest, where zod's share is the largest. */
const OPERATION_ID = 'listWorkspaces';

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The bytes each part of zod puts in the operation's bundle, and the bundle's own size. */
async function zodInOperation(
  outdir: string,
): Promise<{ total: number; core: number; classic: number; locales: number }> {
  // Imported here: bench/bundles.ts imports this module, and its options are its own.
  const { cdkBuildOptions } = await import('./bundles.js');
  const result = await build({ ...cdkBuildOptions(`operation:${OPERATION_ID}`, outdir), metafile: true });
  const output = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('index.mjs'))?.[1];
  if (!output) throw new Error('esbuild wrote no index.mjs');
  const weigh = (prefix: string) =>
    Object.entries(output.inputs)
      .filter(([input]) => input.startsWith(prefix))
      .reduce((sum, [, { bytesInOutput }]) => sum + bytesInOutput, 0);
  return {
    total: output.bytes,
    core: weigh('node_modules/zod/v4/core/'),
    classic: weigh('node_modules/zod/v4/classic/'),
    locales: weigh('node_modules/zod/v4/locales/'),
  };
}

interface Variant {
  name: string;
  bytes: number;
  importMs: number;
  details: string;
}

/** One schema module bundled as a function's code, then imported by fresh Node processes. */
async function measureVariant(name: string, outdir: string): Promise<Variant> {
  const outfile = join(outdir, `${name}.mjs`);
  await build({
    ...LAMBDA_BUILD_OPTIONS,
    // Its size is the code's alone: no map, and no comment naming one.
    sourcemap: false,
    entryPoints: [join(repoRoot, 'bench/zod-mini-schemas', `${name}.ts`)],
    outfile,
  });
  const probe = [
    'const started = performance.now();',
    `const schemas = await import(${JSON.stringify(pathToFileURL(outfile).href)});`,
    'const importMs = performance.now() - started;',
    'console.log(JSON.stringify({ importMs, details: schemas.detailsOfBadPost() }));',
  ].join('\n');
  const runs: { importMs: number; details: unknown }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const printed = execFileSync(process.execPath, ['--input-type=module', '-e', probe], {
      encoding: 'utf8',
    });
    runs.push(JSON.parse(printed) as { importMs: number; details: unknown });
  }
  return {
    name,
    bytes: readFileSync(outfile).length,
    importMs: median(runs.map((run) => run.importMs)),
    details: JSON.stringify(runs[0]?.details),
  };
}

export async function zodMiniSection(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'smcp-zod-mini-'));
  try {
    const operationDir = join(scratch, 'operation');
    mkdirSync(operationDir);
    const weights = await zodInOperation(operationDir);
    const classic = await measureVariant('classic', scratch);
    const mini = await measureVariant('mini', scratch);

    console.log(`\nzod/mini (issue 32, item 3): zod in ${OPERATION_ID}'s bundle (${kib(weights.total)})`);
    console.log(
      `  zod/v4/core     ${kib(weights.core).padStart(9)}   parsers, checks, JSON Schema: zod/mini keeps all of it`,
    );
    console.log(
      `  zod/v4/classic  ${kib(weights.classic).padStart(9)}   the chaining API: what zod/mini would replace`,
    );
    console.log(
      `  zod/v4/locales  ${kib(weights.locales).padStart(9)}   English messages: zod/mini needs them configured too`,
    );
    console.log(
      `The same schemas both ways (bench/zod-mini-schemas/), bundled alone; import median of ${RUNS} fresh ` +
        `\`node\` ${process.version}`,
    );
    for (const variant of [classic, mini]) {
      console.log(
        `  ${variant.name.padEnd(8)} ${kib(variant.bytes).padStart(9)}   import ${variant.importMs.toFixed(1).padStart(5)} ms`,
      );
    }
    const saved = classic.bytes - mini.bytes;
    console.log(
      `  zod/mini saves ${kib(saved)} (${((100 * saved) / weights.total).toFixed(1)} % of ${OPERATION_ID}) and ` +
        `${(classic.importMs - mini.importMs).toFixed(1)} ms of import; same error details: ` +
        `${classic.details === mini.details ? 'yes' : `NO\n    classic ${classic.details}\n    mini    ${mini.details}`}`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  runBenchmark('bench/zod-mini.ts', zodMiniSection);
