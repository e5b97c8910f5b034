import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { type BuildOptions, buildSync } from 'esbuild';
import { repoRoot } from '../paths.js';

/**
 * The packages every Lambda bundle swaps for a file of ours (paths relative to the project root,
 * where esbuild runs):
 * - the SDK's default credential chain, for the environment's credentials (Lambda gives them there;
 *   the chain's STS and SSO clients stay out of the bundle): shared/runtime/lambda-credentials.ts;
 * - core-js, the ES2015 polyfills twitter-text imports, for empty modules: Node 22 has them all
 *   (infra/lambda-stubs/core-js/README.md).
 */
export const LAMBDA_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './shared/runtime/lambda-credentials.ts',
  'core-js': './infra/lambda-stubs/core-js',
};

/** LAMBDA_ALIASES as esbuild's command-line arguments (CDK's `esbuildArgs`). */
export function lambdaAliasArgs(): Record<string, string> {
  return Object.fromEntries(Object.entries(LAMBDA_ALIASES).map(([from, to]) => [`--alias:${from}`, to]));
}

/** Every bundle's first line (and every chunk's): ESM output still meets CommonJS code that calls require(). */
export const REQUIRE_BANNER =
  "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/**
 * The esbuild options NodejsFunction passes for every ServiceFunction (service-function.ts'
 * `bundling`: ESM, node22, minified, source maps without sources, nothing external, LAMBDA_ALIASES,
 * the banner), run from the project root; where the output goes is the caller's.
 */
export const LAMBDA_BUILD_OPTIONS: Readonly<BuildOptions> = {
  bundle: true,
  absWorkingDir: repoRoot,
  target: 'node22',
  platform: 'node',
  format: 'esm',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  external: [],
  alias: { ...LAMBDA_ALIASES },
  banner: { js: REQUIRE_BANNER },
  mainFields: ['module', 'main'],
  logLevel: 'warning',
};

/**
 * esbuild's options for a function built with code splitting: LAMBDA_BUILD_OPTIONS with `outdir`
 * instead of `--outfile`, which NodejsFunction forces and splitting cannot use. The entry is
 * `index.mjs`; each dynamic import becomes a chunk under `chunks/`, `.mjs` too (the asset has no
 * package.json saying `module`).
 */
export function splitBuildOptions(entry: string, outdir: string): BuildOptions {
  return {
    ...LAMBDA_BUILD_OPTIONS,
    entryPoints: { index: entry },
    splitting: true,
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
  };
}

/**
 * Runs esbuild in this process at synth (as NodejsFunction's local bundling does, no Docker). Its
 * `entry` is part of the asset's cache key (CDK hashes the bundling options as JSON), so two split
 * functions never share a bundle.
 */
class SplitLocalBundling implements ILocalBundling {
  constructor(readonly entry: string) {}

  tryBundle(outputDir: string): boolean {
    buildSync(splitBuildOptions(this.entry, outputDir));
    return true;
  }
}

/**
 * A function's code built from `entry` with code splitting, as an asset of the output's hash.
 * CDK's own switch to skip bundling (`aws:cdk:bundling-stacks`, `cdk synth --exclusively`) skips
 * it as it skips NodejsFunction's.
 */
export function splitBundledCode(entry: string): lambda.Code {
  return lambda.Code.fromAsset(repoRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      local: new SplitLocalBundling(entry),
      // Never run: local bundling builds or throws. CDK requires an image all the same.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
      command: ['esbuild', entry],
    },
  });
}
