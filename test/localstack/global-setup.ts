import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { localstackEndpoint, probeLocalStack } from './probe.js';

export interface LocalStackContext {
  endpoint: string;
  region: string;
  /** Service name → state, from /_localstack/health. */
  services: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    localstack: LocalStackContext;
  }
}

/**
 * Finds the LocalStack the suite runs against (LOCALSTACK_ENDPOINT, default http://localhost:4566).
 * `npm run test:localstack` has already checked it is there and skips the suite when it is not;
 * running this config directly without one fails here, with the reason, before any test.
 */
export async function setup(project: TestProject) {
  const probe = await probeLocalStack(localstackEndpoint());
  if (!probe.reachable) {
    throw new Error(
      `LocalStack is not reachable at ${probe.endpoint} (${probe.reason}). Start it (e.g. \`localstack start\`), ` +
        'or run `npm run test:localstack`, which skips the suite when none is running.',
    );
  }
  console.log(`LocalStack ${probe.version ?? '(version unknown)'} at ${probe.endpoint}`);
  project.provide('localstack', {
    endpoint: probe.endpoint,
    region: process.env.LOCALSTACK_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1',
    services: probe.services,
  });
}
