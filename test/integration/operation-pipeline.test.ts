import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/domain/errors.js';
import { operationById } from '../../shared/operations/registry.js';
import type { OperationRequest, PipelineProgress } from '../../shared/pipeline/operation-request.js';
import { runOperation } from '../../shared/pipeline/run-operation.js';
import { silentLogger } from '../../shared/ports/logger.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

const createPost = operationById('createPost');
const getPost = operationById('getPost');

async function failure(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected one of our errors, got ${String(error)}`);
  return error;
}

describe('the operation pipeline, called with a plain request and no event', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let other: BootstrapResult;
  let bodyReads = 0;

  const request = (overrides: Partial<OperationRequest> = {}): OperationRequest => ({
    requestId: 'req_pipeline_test',
    authorization: `Bearer ${tenant.apiKey}`,
    params: { workspace_id: tenant.workspaceId },
    query: {},
    headers: {},
    readBody: () => {
      bodyReads += 1;
      return {
        accountId: tenant.accounts.twitter,
        platform: 'twitter',
        postType: 'text',
        content: 'plain',
        status: 'draft',
      };
    },
    logger: silentLogger,
    ...overrides,
  });

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Pipeline' });
    other = await host.admin.bootstrap({ name: 'Pipeline other' });
  });
  afterAll(async () => host.stop());

  it('runs every step and answers the status, the parsed body and the progress it made', async () => {
    const progress: PipelineProgress = {};
    const result = await runOperation(createPost, host.deps, request(), progress);
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ status: 'draft', platform: 'twitter' });
    expect(progress.principal?.tenant.tenantId).toBe(tenant.tenantId);
    expect(progress.workspaceId).toBe(tenant.workspaceId);
    expect(progress.rateLimit?.allowed).toBe(true);
  });

  it('refuses a bad key before it reads the body or takes a rate-limit token', async () => {
    const before = bodyReads;
    const progress: PipelineProgress = {};
    const error = await failure(
      runOperation(createPost, host.deps, request({ authorization: 'Bearer smcp_nope' }), progress),
    );
    expect(error.status).toBe(401);
    expect(bodyReads).toBe(before);
    expect(progress).toEqual({});
  });

  it("answers 404 for another tenant's workspace, before the body is read", async () => {
    const before = bodyReads;
    const error = await failure(
      runOperation(createPost, host.deps, request({ params: { workspace_id: other.workspaceId } })),
    );
    expect(error.code).toBe('not_found');
    expect(bodyReads).toBe(before);
  });

  it('lists every invalid input at once, in the names the request used', async () => {
    const error = await failure(
      runOperation(
        getPost,
        host.deps,
        request({ params: { workspace_id: tenant.workspaceId, post_id: 7 }, readBody: () => undefined }),
      ),
    );
    expect(error.code).toBe('INVALID_REQUEST');
    expect(Object.keys((error as AppError & { details?: object }).details ?? {})).toEqual(['post_id']);
  });

  it('never reads a Lambda event: no pipeline file imports the event types or the HTTP adapter', () => {
    const root = join(import.meta.dirname, '../../shared/pipeline');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    );
    expect(files.length).toBeGreaterThan(4);
    for (const file of files) {
      const source = readFileSync(join(root, file), 'utf8');
      expect(source, file).not.toMatch(/aws-lambda|request-state|@middy/);
    }
  });
});
