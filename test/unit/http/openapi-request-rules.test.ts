import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../shared/http/openapi.js';
import type { Operation } from '../../../shared/http/operation.js';
import { operations } from '../../../shared/operations/registry.js';

/**
 * Rules of a request body that the service enforces beyond field types, and that JSON Schema can
 * say, are in the document too: schemathesis (npm run test:api-fuzz) sent bodies the document
 * allowed and the service refused with 400. Each case below is such a body: the operation's own
 * schema refuses it, and so must the document, or a generated client would send it.
 */

type Json = Record<string, unknown>;

const document = buildOpenApiDocument(operations, {}) as Json;

function operation(id: string): Operation {
  const found = operations.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`The registry has no operation ${id}.`);
  return found;
}

/** The document's request-body schema of an operation, its components alongside for the $refs. */
function documentBodyValidator(op: Operation) {
  const entry = ((document.paths as Json)[op.path] as Json)[op.method.toLowerCase()] as Json;
  const content = (entry.requestBody as Json).content as Record<string, { schema: Json }>;
  const schema = content['application/json']?.schema;
  if (!schema) throw new Error(`${op.id} has no JSON request body in the document.`);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile({ ...schema, components: document.components });
}

const account = 'acc_01TESTACCOUNT0000000000000';
const imageUrl = 'https://cdn.example.com/spring.png';
/** A draft the service takes; each case changes one thing. */
const post = {
  platform: 'instagram',
  accountId: account,
  status: 'draft',
  postType: 'image',
  content: 'Spring',
};

const cases: { name: string; operationId: string; body: Json }[] = [
  {
    name: 'a webhook listing one event twice',
    operationId: 'createWebhook',
    body: { url: 'https://hooks.example.com/social', events: ['post.failed', 'post.failed'] },
  },
  {
    name: 'a media item with both an id and a url',
    operationId: 'createPost',
    body: { ...post, media: [{ id: 'med_01TESTMEDIA', url: imageUrl, type: 'image' }] },
  },
  {
    name: 'a media item with neither an id nor a url',
    operationId: 'createPost',
    body: { ...post, media: [{ alt: 'A field' }] },
  },
  {
    name: 'a media item with a url but no type',
    operationId: 'createPost',
    body: { ...post, media: [{ url: imageUrl }] },
  },
  {
    name: 'platform options under both twitter and x',
    operationId: 'createPost',
    body: { ...post, platform: 'twitter', postType: 'text', platformOptions: { twitter: {}, x: {} } },
  },
];

describe('request-body rules the service enforces are in the OpenAPI document', () => {
  it.each(cases)('$name: refused by the operation and by the document', ({ operationId, body }) => {
    // Prepare
    const op = operation(operationId);
    const documentAccepts = documentBodyValidator(op);

    // Act
    const serviceAccepts = op.schemas.body?.safeParse(body).success;

    // Assess
    expect(serviceAccepts).toBe(false);
    expect(documentAccepts(body)).toBe(false);
  });

  it('still accepts what the service accepts: media by id, or by url with its type', () => {
    // Prepare
    const op = operation('createPost');
    const documentAccepts = documentBodyValidator(op);
    const body = { ...post, media: [{ id: 'med_01TESTMEDIA' }, { url: imageUrl, type: 'image' }] };

    // Act
    const serviceAccepts = op.schemas.body?.safeParse(body).success;

    // Assess
    expect(serviceAccepts).toBe(true);
    expect(documentAccepts(body)).toBe(true);
  });
});

describe('the workspaceId query parameter of the short forms', () => {
  const shortForms = operations.filter((candidate) => candidate.workspace === 'implicit');

  it.each(shortForms.map((op) => [op.id, op] as const))(
    '%s: the document refuses a malformed workspace id, as the service does (400), and takes a well-formed one',
    (_id, op) => {
      // Prepare
      const entry = ((document.paths as Json)[op.path] as Json)[op.method.toLowerCase()] as Json;
      const parameter = (entry.parameters as Json[]).find((candidate) => candidate.name === 'workspaceId');
      const ajv = new Ajv2020({ strict: false });

      // Act
      const accepts = ajv.compile(parameter?.schema as Json);

      // Assess
      expect(accepts('X')).toBe(false);
      expect(accepts('wks_01TESTWORKSPACE')).toBe(true);
    },
  );
});
