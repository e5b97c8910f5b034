import { execFileSync } from 'node:child_process';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tracingWanted } from '../../../shared/adapters/observability/tracer.js';

describe('tracingWanted', () => {
  it('is true in Lambda, the way Powertools decides', () => {
    expect(tracingWanted({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs20.x' })).toBe(true);
  });

  it('is false outside Lambda, or when POWERTOOLS_TRACE_ENABLED is false in any case', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ AWS_EXECUTION_ENV: '' })).toBe(false);
    expect(
      tracingWanted({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs20.x', POWERTOOLS_TRACE_ENABLED: 'FALSE' }),
    ).toBe(false);
  });
});

describe('traced', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  const middlewareOf = (client: DynamoDBClient) => client.middlewareStack.identify().join('\n');

  it('adds the X-Ray middleware to an SDK client in Lambda', async () => {
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs20.x');
    vi.resetModules();
    const { traced } = await import('../../../shared/adapters/observability/tracer.js');
    const client = traced(new DynamoDBClient({ region: 'us-east-1' }));
    expect(middlewareOf(client)).toMatch(/xray/i);
  });

  it('hands the client back untouched elsewhere', async () => {
    vi.stubEnv('AWS_EXECUTION_ENV', '');
    vi.resetModules();
    const { traced } = await import('../../../shared/adapters/observability/tracer.js');
    const client = new DynamoDBClient({ region: 'us-east-1' });
    const before = middlewareOf(client);
    expect(traced(client)).toBe(client);
    expect(middlewareOf(client)).toBe(before);
    expect(before).not.toMatch(/xray/i);
  });
});

describe('the X-Ray SDK', () => {
  /** A fresh Node process, so no earlier import in this worker can have loaded the SDK already. */
  function xraySdkLoadedAfterImport(env: NodeJS.ProcessEnv): boolean {
    const script = `
      import { createRequire } from 'node:module';
      await import('./shared/adapters/observability/tracer.ts');
      const cache = createRequire(import.meta.url).cache;
      console.log(Object.keys(cache).some((path) => path.includes('aws-xray-sdk-core')));`;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
      encoding: 'utf8',
    });
    return output.trim() === 'true';
  }

  it('is loaded in Lambda and nowhere else', () => {
    expect(
      xraySdkLoadedAfterImport({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs20.x', AWS_REGION: 'us-east-1' }),
    ).toBe(true);
    expect(xraySdkLoadedAfterImport({})).toBe(false);
  });
});
