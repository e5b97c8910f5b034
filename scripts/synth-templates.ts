/**
 * Synthesizes infra/app.ts, the CDK app `npm run synth` runs, into a folder of our choosing, the
 * way the CDK CLI runs an app (CDK_OUTDIR, CDK_CONTEXT_JSON with cdk.json's context), and answers
 * the CloudFormation templates it wrote. Used by `npm run lint:cfn` and by the emulator suite's
 * deployment test (test/emulator/), which both need the app's real templates but not its bundles.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DAILY_QUOTA_OF_PLATFORM,
  NETWORK_DEFINITIONS,
  type PlatformId,
  QUOTA_SETTINGS_OF_PLATFORM,
} from '../shared/networks/definitions.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

const FIRST_ENDPOINT = Object.keys(NETWORK_DEFINITIONS[0].endpoints)[0] as string;

/** Each network's operator-set daily quota at five times its default, as a project granted more. */
const QUOTA_CONTEXT: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(QUOTA_SETTINGS_OF_PLATFORM).flatMap(([platform, settings]) =>
    settings ? [[settings.limit, String(DAILY_QUOTA_OF_PLATFORM[platform as PlatformId].limit * 5)]] : [],
  ),
);

/**
 * The settings each linted template is synthesized with. `default` is cdk.json's (what `npm run
 * synth` and a first `cdk deploy` make); `everything` sets every optional context key
 * (docs/deploy.md), so the resources only they add (custom domain, alarm subscription, reserved
 * concurrency, network endpoints, quota settings) are linted too.
 */
export const TEMPLATE_VARIANTS = {
  default: {},
  everything: {
    stage: 'prod',
    domainName: 'api.example.com',
    certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
    corsOrigins: ['https://app.example.com'],
    alarmEmail: 'ops@example.com',
    logLevel: 'WARN',
    mcpReservedConcurrency: 50,
    apiThrottleRateLimit: 200,
    apiThrottleBurstLimit: 400,
    networkSecretsPrefix: 'acme/prod/networks/',
    // A network address other than the real one: the first network's first, at a staging host.
    [FIRST_ENDPOINT]: 'https://network-staging.example.com',
    ...QUOTA_CONTEXT,
  },
} as const satisfies Record<string, Record<string, unknown>>;

export type TemplateVariant = keyof typeof TEMPLATE_VARIANTS;

export interface SynthesizedTemplate {
  /** The stack's name (`SocialPublishing-<stage>`). */
  stackName: string;
  /** The template file's absolute path. */
  templatePath: string;
  /** The stack's file assets manifest (where each asset goes: bucket, key). */
  assetsPath?: string;
}

/**
 * Runs the app once into `outdir` with cdk.json's context and `context` over it. Bundling is
 * skipped (CDK's own `aws:cdk:bundling-stacks: []`, as `cdk synth --exclusively` uses): the
 * template is the same but for the functions' asset hashes, and esbuild's ~40 bundles would
 * triple the time.
 */
export async function synthesize(outdir: string, context: Record<string, unknown> = {}) {
  const cdkJson = JSON.parse(await readFile(join(repoRoot, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  const fullContext = {
    ...cdkJson.context,
    ...context,
    'aws:cdk:bundling-stacks': [],
    // The CLI's default: the template carries AWS::CDK::Metadata, as a deployed one does.
    'aws:cdk:version-reporting': true,
  };
  await run(process.execPath, ['--import', 'tsx', 'infra/app.ts'], {
    ...process.env,
    CDK_OUTDIR: outdir,
    CDK_CONTEXT_JSON: JSON.stringify(fullContext),
  });
  return readStacks(outdir);
}

/** The stacks a cloud assembly holds, from its manifest. */
async function readStacks(outdir: string): Promise<SynthesizedTemplate[]> {
  const manifest = JSON.parse(await readFile(join(outdir, 'manifest.json'), 'utf8')) as {
    artifacts?: Record<string, { type: string; properties?: { templateFile?: string } }>;
  };
  const artifacts = Object.entries(manifest.artifacts ?? {});
  return artifacts
    .filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack')
    .map(([stackName, artifact]) => {
      const assets = artifacts.find(
        ([id, other]) => other.type === 'cdk:asset-manifest' && id === `${stackName}.assets`,
      );
      return {
        stackName,
        templatePath: join(outdir, artifact.properties?.templateFile ?? `${stackName}.template.json`),
        ...(assets && { assetsPath: join(outdir, `${stackName}.assets.json`) }),
      };
    });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${[command, ...args].join(' ')} exited with ${code ?? signal}`)),
    );
  });
}
