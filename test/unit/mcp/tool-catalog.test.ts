import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation, type Operation } from '../../../shared/http/operation.js';
import { argumentPlanOf, splitArguments } from '../../../shared/mcp/tool-arguments.js';
import { buildToolCatalog, isTool, toolOf } from '../../../shared/mcp/tool-catalog.js';
import { noQuery, workspacePathParams } from '../../../shared/operations/common-schemas.js';
import { operationById, operations } from '../../../shared/operations/registry.js';

const catalog = buildToolCatalog(operations);
const validator = new AjvJsonSchemaValidator();

describe('the tool catalog', () => {
  it('has one tool per key-authenticated operation with a workspace path, named by its id', () => {
    const expected = operations.filter((op) => op.auth === 'apiKey' && op.workspace !== 'implicit');
    expect([...catalog.keys()].sort()).toEqual(expected.map((op) => op.id).sort());
    expect(catalog.has('getOpenApi')).toBe(false);
    expect(operations.filter((op) => op.workspace === 'implicit').some(isTool)).toBe(false);
  });

  it("compiles every input and output schema with the SDK client's own validator", () => {
    for (const tool of catalog.values()) {
      expect(() => validator.getValidator(tool.inputSchema), tool.name).not.toThrow();
      if (tool.outputSchema)
        expect(() => validator.getValidator(tool.outputSchema ?? {}), tool.name).not.toThrow();
      expect(tool.outputSchema === undefined, tool.name).toBe(tool.operation.successStatus === 204);
    }
  });

  it('takes createPost as workspaceId, an optional idempotencyKey and the body, and nothing else', () => {
    const input: Record<string, unknown> = catalog.get('createPost')?.inputSchema ?? {};
    expect(Object.keys(input.properties as object).sort()).toEqual(['body', 'idempotencyKey', 'workspaceId']);
    expect((input.required as string[]).sort()).toEqual(['body', 'workspaceId']);
    expect(input.additionalProperties).toBe(false);
    const check = validator.getValidator(input);
    expect(check({ workspaceId: 'wks_1', body: {}, extra: 1 }).valid).toBe(false);
  });

  it("accepts the operation's answer or our envelope with its status as output, not another shape", () => {
    const check = validator.getValidator(catalog.get('listWorkspaces')?.outputSchema ?? {});
    expect(check({ data: [], nextCursor: null }).valid).toBe(true);
    expect(check({ error: 'not_found', message: 'No.', status: 404 }).valid).toBe(true);
    expect(check({ data: 'not a list', nextCursor: null }).valid).toBe(false);
    expect(check({ data: [{ id: 7 }], nextCursor: null }).valid).toBe(false);
    // A post's fields conflict with the envelope's (status, error): the envelope is a shape of its own.
    const post = validator.getValidator(catalog.get('getPost')?.outputSchema ?? {});
    expect(post({ error: 'not_found', message: 'No.', status: 404 }).valid).toBe(true);
    expect(post({ error: 'not_found', message: 'No status.' }).valid).toBe(false);
    expect(post({ id: 'pst_1', status: 'published', attempts: 'one' }).valid).toBe(false);
  });

  it('derives the annotations from the method and the declared effects', () => {
    const hints = (id: string) => catalog.get(id)?.annotations;
    expect(hints('getPost')).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(hints('validatePost')).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(hints('deleteWebhook')).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(hints('cancelPost')).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(hints('rejectPost')).toMatchObject({ destructiveHint: true });
    expect(hints('createPost')).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: true,
    });
    expect(hints('createWebhook')).toMatchObject({
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    for (const id of ['approvePost', 'importMedia', 'testWebhook', 'retryWebhookDelivery']) {
      expect(hints(id)?.openWorldHint, id).toBe(true);
    }
  });

  it("describes each tool with its operation's summary and description, in the tool's terms when they differ", () => {
    const cancelPost = operationById('cancelPost');
    expect(catalog.get('cancelPost')?.description).toBe(`${cancelPost.summary}. ${cancelPost.description}`);
    const createPost = operationById('createPost');
    expect(createPost.toolDescription).toBeDefined();
    expect(catalog.get('createPost')?.description).toBe(
      `${createPost.summary}. ${createPost.toolDescription}`,
    );
    // The REST route is not the tool's business: its name is the operationId.
    expect(catalog.get('cancelPost')?.description).not.toContain(cancelPost.path);
  });
});

describe('tool arguments', () => {
  const withQuery = (query: z.ZodObject<z.ZodRawShape>): Operation =>
    defineOperation({
      ...operationById('getPost'),
      id: 'testCollision',
      schemas: { ...operationById('getPost').schemas, query },
    });

  it('refuses an operation whose inputs would share an argument name', () => {
    expect(() => argumentPlanOf(withQuery(z.object({ postId: z.string() })))).toThrow(/postId/);
    expect(() => toolOf(withQuery(z.object({ body: z.string() })))).not.toThrow();
  });

  it('routes each argument to its place in the request and reports the unknown ones', () => {
    const plan = argumentPlanOf(operationById('createPost'));
    const parts = splitArguments(plan, {
      workspaceId: 'wks_1',
      idempotencyKey: 'k',
      body: { a: 1 },
      stray: 2,
    });
    expect(parts).toEqual({
      params: { workspace_id: 'wks_1' },
      query: {},
      headers: { 'idempotency-key': 'k' },
      body: { a: 1 },
      unknown: ['stray'],
    });
  });

  it('marks the body optional when the operation accepts none', () => {
    const optional = defineOperation({
      ...operationById('createPost'),
      id: 'testOptionalBody',
      handler: async () => ({}),
      schemas: {
        params: workspacePathParams,
        query: noQuery,
        body: z.strictObject({ reason: z.string() }).optional(),
        response: z.object({}),
      },
    });
    expect(toolOf(optional).inputSchema.required).toEqual(['workspaceId']);
  });
});
