import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { operationExamples } from '../../../shared/http/openapi-examples.js';
import { leanInputSchema, summarySchema } from '../../../shared/mcp/agent-schemas.js';
import { shareRepeatedParts } from '../../../shared/mcp/shared-subschemas.js';
import { buildToolCatalog } from '../../../shared/mcp/tool-catalog.js';
import { idOf } from '../../../shared/operations/common-schemas.js';
import { utcTimestamp } from '../../../shared/operations/posts/post-schemas.js';
import { operations } from '../../../shared/operations/registry.js';

type Schema = Record<string, unknown>;
const draft7 = (schema: z.ZodType) => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Schema;
  return rest;
};
const validator = new AjvJsonSchemaValidator();

describe('leanInputSchema', () => {
  it('gives a date-time as format date-time without its pattern, keeping its description', () => {
    const full = draft7(z.object({ at: utcTimestamp.describe('When.') }));
    expect(JSON.stringify(full)).toContain('"pattern"');
    const lean = leanInputSchema(full);
    expect((lean.properties as Record<string, Schema>).at).toEqual({
      type: 'string',
      format: 'date-time',
      description: 'When.',
    });
  });

  it("drops an id's pattern when its description names the prefix, and keeps every other pattern", () => {
    const lean = leanInputSchema(
      draft7(
        z.object({
          postId: idOf('post'),
          code: z
            .string()
            .regex(/^[A-Z]{3}$/)
            .describe('Three letters.'),
        }),
      ),
    );
    const properties = lean.properties as Record<string, Schema>;
    expect(properties.postId).toEqual({
      type: 'string',
      description: 'Post id (pst_…).',
    });
    expect(properties.code?.pattern).toBe('^[A-Z]{3}$');
  });

  it('keeps additionalProperties false on the arguments, not on the objects inside them', () => {
    const lean = leanInputSchema(
      draft7(z.strictObject({ body: z.strictObject({ type: z.enum(['a', 'b']).describe('A or b.') }) })),
    );
    expect(lean.additionalProperties).toBe(false);
    const body = (lean.properties as Record<string, Schema>).body as Schema;
    expect(body.additionalProperties).toBeUndefined();
    // A property named like a keyword is a name: `type` stays, as an enum without its redundant type.
    expect((body.properties as Record<string, Schema>).type).toEqual({
      enum: ['a', 'b'],
      description: 'A or b.',
    });
  });

  it('writes a definition used once where it is used, and keeps one used twice', () => {
    const once = z.object({ n: z.number() }).meta({ id: 'Once' });
    const twice = z.object({ m: z.number() }).meta({ id: 'Twice' });
    const lean = leanInputSchema(draft7(z.object({ a: once, b: twice, c: twice })));
    expect(Object.keys(lean.definitions as Schema)).toEqual(['Twice']);
    expect((lean.properties as Record<string, Schema>).a).toMatchObject({ type: 'object' });
    expect(JSON.stringify(lean)).not.toContain('Once');
  });
});

describe('summarySchema', () => {
  const catalog = buildToolCatalog(operations);

  it('accepts every recorded success answer of every tool: a summary only loosens the full schema', () => {
    let checked = 0;
    for (const tool of catalog.values()) {
      const responses = operationExamples[tool.name]?.responses ?? {};
      for (const [status, body] of Object.entries(responses)) {
        if (!tool.outputSchema || !status.startsWith('2')) continue;
        const result = validator.getValidator(tool.outputSchema)(body);
        expect(result.valid, `${tool.name} ${status}: ${result.errorMessage}`).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(15);
  });

  it("shows a result's fields with their types, a page's items as the resource, and no deeper", () => {
    const item = z.object({
      id: z.string(),
      nested: z.object({ deep: z.string() }),
      tags: z.array(z.string()),
    });
    const page = z.object({ data: z.array(item), nextCursor: z.string().nullable() });
    const { $schema: _dialect, ...full } = z.toJSONSchema(page, {
      target: 'draft-7',
      io: 'output',
    }) as Schema;
    expect(summarySchema(full)).toEqual({
      type: 'object',
      properties: {
        data: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              nested: { type: 'object' },
              tags: { type: 'array', items: { type: 'string' } },
            },
          },
        },
        nextCursor: { type: ['string', 'null'] },
      },
    });
  });
});

describe('shareRepeatedParts', () => {
  const propertyOf = (schema: Schema | undefined, name: string): Schema | undefined =>
    ((schema?.properties ?? {}) as Record<string, Schema>)[name];
  const big = {
    type: 'object',
    description: 'A big part.',
    properties: { text: { type: 'string', description: 'x'.repeat(300) } },
  };

  it("writes a part out in the first tool that has it, and names that place in a later tool's copy", () => {
    const [first, second] = shareRepeatedParts([
      { tool: 'createThing', kind: 'input', schema: { type: 'object', properties: { body: big } } },
      { tool: 'checkThing', kind: 'input', schema: { type: 'object', properties: { body: big } } },
    ]);
    expect(propertyOf(first, 'body')).toEqual(big);
    expect(propertyOf(second, 'body')).toEqual({
      type: 'object',
      description: "Same as createThing's body.",
    });
  });

  it("keeps an input's root and a part repeated within one tool, and drops a definition no longer used", () => {
    const root = {
      type: 'object',
      properties: { a: { $ref: '#/definitions/Big' }, b: { $ref: '#/definitions/Big' } },
      definitions: { Big: big },
    };
    const [first, second] = shareRepeatedParts([
      { tool: 'one', kind: 'input', schema: root },
      { tool: 'two', kind: 'input', schema: { type: 'object', properties: { body: big } } },
    ]);
    expect(first).toEqual(root);
    expect(propertyOf(second, 'body')?.description).toBe("Same as one's definitions.Big.");
  });
});
