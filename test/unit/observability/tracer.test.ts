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

describe('traced and inSubsegment', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  const middlewareOf = (client: DynamoDBClient) => client.middlewareStack.identify().join('\n');

  it('add the X-Ray middleware to an SDK client once with-tracing.ts ran in Lambda', async () => {
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs20.x');
    vi.resetModules();
    await import('../../../shared/runtime/with-tracing.js');
    const { traced } = await import('../../../shared/adapters/observability/tracer.js');
    const client = traced(new DynamoDBClient({ region: 'us-east-1' }));
    expect(middlewareOf(client)).toMatch(/xray/i);
  });

  it('hand the client back untouched, and run the call as it is, where nothing registered a tracer', async () => {
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs20.x');
    vi.resetModules();
    // In Lambda, but the function's entry did not import with-tracing.ts (a request-path function).
    const { traced, inSubsegment } = await import('../../../shared/adapters/observability/tracer.js');
    const client = new DynamoDBClient({ region: 'us-east-1' });
    const before = middlewareOf(client);
    expect(traced(client)).toBe(client);
    expect(middlewareOf(client)).toBe(before);
    expect(before).not.toMatch(/xray/i);
    await expect(inSubsegment('x.publish', { post_id: 'pst_1' }, async () => 'done')).resolves.toBe('done');
  });

  it('hand both to the registered tracer', async () => {
    vi.resetModules();
    const { registerTracing, traced, inSubsegment } = await import(
      '../../../shared/adapters/observability/tracer.js'
    );
    const subsegments: { name: string; annotations: Readonly<Record<string, string>> }[] = [];
    const marked = { marked: true };
    registerTracing({
      captureAwsClient: <T>(_client: T) => marked as T,
      inSubsegment: (name, annotations, fn) => {
        subsegments.push({ name, annotations });
        return fn();
      },
    });
    expect(traced({})).toBe(marked);
    await expect(inSubsegment('x.publish', { post_id: 'pst_1' }, async () => 7)).resolves.toBe(7);
    expect(subsegments).toEqual([{ name: 'x.publish', annotations: { post_id: 'pst_1' } }]);
  });
});

describe('the X-Ray SDK', () => {
  /** A fresh Node process, so no earlier import in this worker can have loaded the SDK already. */
  function xraySdkLoadedAfterImport(module: string, env: NodeJS.ProcessEnv): boolean {
    const script = `
      import { createRequire } from 'node:module';
      await import('./${module}');
      const cache = createRequire(import.meta.url).cache;
      console.log(Object.keys(cache).some((path) => path.includes('aws-xray-sdk-core')));`;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
      encoding: 'utf8',
    });
    return output.trim() === 'true';
  }

  const LAMBDA = { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs20.x', AWS_REGION: 'us-east-1' };

  it('is loaded by with-tracing.ts in Lambda and nowhere else', () => {
    expect(xraySdkLoadedAfterImport('shared/runtime/with-tracing.ts', LAMBDA)).toBe(true);
    expect(xraySdkLoadedAfterImport('shared/runtime/with-tracing.ts', {})).toBe(false);
  });

  it('is never loaded by tracer.ts itself, which every function imports', () => {
    expect(xraySdkLoadedAfterImport('shared/adapters/observability/tracer.ts', LAMBDA)).toBe(false);
  });
});
