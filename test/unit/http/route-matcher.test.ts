import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation, type HttpMethod, type Operation } from '../../../shared/http/operation.js';
import { makeRouteMatcher } from '../../../shared/http/route-matcher.js';
import { operations } from '../../../shared/operations/registry.js';

/** A minimal operation: only its method and path matter to the matcher. */
function fakeOperation(id: string, method: HttpMethod, path: string): Operation {
  return defineOperation({
    id,
    method,
    path,
    summary: id,
    description: id,
    tag: 'Test',
    auth: 'none',
    rateLimitFamily: 'other',
    workspace: 'none',
    successStatus: 200,
    schemas: { params: z.object({}), query: z.object({}), response: z.object({}) },
    async handler() {
      return {};
    },
  }) as Operation;
}

const listPosts = fakeOperation('listPosts', 'GET', '/v1/workspaces/{workspace_id}/posts');
const createPost = fakeOperation('createPost', 'POST', '/v1/workspaces/{workspace_id}/posts');
const getPost = fakeOperation('getPost', 'GET', '/v1/workspaces/{workspace_id}/posts/{post_id}');
const deletePost = fakeOperation('deletePost', 'DELETE', '/v1/workspaces/{workspace_id}/posts/{post_id}');
const openApi = fakeOperation('openApi', 'GET', '/v1/openapi.json');

const match = makeRouteMatcher([listPosts, createPost, getPost, deletePost, openApi]);

describe('makeRouteMatcher', () => {
  it('prefers a literal segment to a parameter, whatever the registration order', () => {
    // Prepare
    const byId = fakeOperation('getThing', 'GET', '/v1/things/{thing_id}');
    const special = fakeOperation('getSpecial', 'GET', '/v1/things/special');
    const matchBoth = makeRouteMatcher([byId, special]);

    // Act
    const literal = matchBoth('GET', '/v1/things/special');
    const param = matchBoth('GET', '/v1/things/thg_1');

    // Assess
    expect(literal).toMatchObject({ kind: 'found', operation: special });
    expect(param).toMatchObject({ kind: 'found', operation: byId, pathParameters: { thing_id: 'thg_1' } });
  });

  it('names each allowed method once when several routes of that method match the path', () => {
    // Prepare
    const matchBoth = makeRouteMatcher([
      fakeOperation('getThing', 'GET', '/v1/things/{thing_id}'),
      fakeOperation('getSpecial', 'GET', '/v1/things/special'),
    ]);

    // Act
    const result = matchBoth('DELETE', '/v1/things/special');

    // Assess
    expect(result).toEqual({ kind: 'wrong_method', allowed: ['GET'] });
  });

  it('finds the operation of a method and path, with its path parameters', () => {
    // Act
    const result = match('GET', '/v1/workspaces/wks_A/posts/pst_B');

    // Assess
    expect(result).toEqual({
      kind: 'found',
      operation: getPost,
      pathParameters: { workspace_id: 'wks_A', post_id: 'pst_B' },
    });
  });

  it('tells two operations on one path apart by method', () => {
    // Act
    const listed = match('GET', '/v1/workspaces/wks_A/posts');
    const created = match('POST', '/v1/workspaces/wks_A/posts');

    // Assess
    expect(listed).toMatchObject({ kind: 'found', operation: listPosts });
    expect(created).toMatchObject({ kind: 'found', operation: createPost });
  });

  it('percent-decodes path parameters', () => {
    // Act
    const result = match('GET', '/v1/workspaces/wks%20A/posts/p%C3%A9st%2Fx');

    // Assess
    expect(result).toMatchObject({
      kind: 'found',
      pathParameters: { workspace_id: 'wks A', post_id: 'pést/x' },
    });
  });

  it('accepts one trailing slash', () => {
    expect(match('GET', '/v1/workspaces/wks_A/posts/')).toMatchObject({
      kind: 'found',
      operation: listPosts,
      pathParameters: { workspace_id: 'wks_A' },
    });
  });

  it('does not accept two trailing slashes', () => {
    expect(match('GET', '/v1/workspaces/wks_A/posts//')).toEqual({ kind: 'not_found' });
  });

  it('matches the method case-insensitively', () => {
    expect(match('delete', '/v1/workspaces/wks_A/posts/pst_B')).toMatchObject({
      kind: 'found',
      operation: deletePost,
    });
  });

  it('lists the methods the path allows when the method is wrong', () => {
    // Act
    const onCollection = match('PUT', '/v1/workspaces/wks_A/posts');
    const onItem = match('PATCH', '/v1/workspaces/wks_A/posts/pst_B');

    // Assess
    expect(onCollection).toEqual({ kind: 'wrong_method', allowed: ['GET', 'POST'] });
    expect(onItem).toEqual({ kind: 'wrong_method', allowed: ['GET', 'DELETE'] });
  });

  it.each([
    '/v1/workspaces',
    '/v2/workspaces/wks_A/posts',
    '/v1/workspaces/wks_A/posts/pst_B/extra',
    '/v1/workspaces/wks_A/post',
    '/v1/workspaces//posts',
    'v1/openapi.json',
    '',
  ])('answers not_found for the unknown path "%s"', (path) => {
    expect(match('GET', path)).toEqual({ kind: 'not_found' });
  });

  it('treats a dot in a literal segment literally', () => {
    expect(match('GET', '/v1/openapiXjson')).toEqual({ kind: 'not_found' });
    expect(match('GET', '/v1/openapi.json')).toMatchObject({ kind: 'found', operation: openApi });
  });

  it('never lets a parameter span a slash', () => {
    // Act
    const result = match('GET', '/v1/workspaces/wks_A/extra/posts');

    // Assess
    expect(result).toEqual({ kind: 'not_found' });
  });

  it('never lets a parameter span a slash, for any segments', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/);
    fc.assert(
      fc.property(segment, segment, (first, second) => {
        expect(match('GET', `/v1/workspaces/${first}/${second}/posts`)).toEqual({ kind: 'not_found' });
      }),
    );
  });

  it('answers the single segment it was given as the parameter, for any segment', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_.~-]{1,40}$/);
    fc.assert(
      fc.property(segment, (workspaceId) => {
        expect(match('POST', `/v1/workspaces/${workspaceId}/posts`)).toEqual({
          kind: 'found',
          operation: createPost,
          pathParameters: { workspace_id: workspaceId },
        });
      }),
    );
  });

  it.each(['%', '%E0%A4%A', '%ZZ', 'abc%'])(
    'answers not_found for the malformed percent-encoding "%s"',
    (bad) => {
      expect(match('GET', `/v1/workspaces/${bad}/posts`)).toEqual({ kind: 'not_found' });
    },
  );
});

describe('makeRouteMatcher over the real registry', () => {
  const matchRegistry = makeRouteMatcher(operations);

  it('finds every registry operation at its own path with sample parameters', () => {
    for (const operation of operations) {
      // Prepare
      const path = operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => `sample_${name}`);

      // Act
      const result = matchRegistry(operation.method, path);

      // Assess
      expect(result.kind).toBe('found');
      if (result.kind !== 'found') continue;
      expect(result.operation.id).toBe(operation.id);
      const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] ?? '');
      expect(result.pathParameters).toEqual(
        Object.fromEntries(names.map((name) => [name, `sample_${name}`])),
      );
    }
  });

  it('finds getAccount with both ids', () => {
    expect(matchRegistry('GET', '/v1/workspaces/wks_1/accounts/acc_2')).toMatchObject({
      kind: 'found',
      operation: { id: 'getAccount' },
      pathParameters: { workspace_id: 'wks_1', account_id: 'acc_2' },
    });
  });

  it('sends POST .../posts/validate to validatePost, never to a {post_id} route', () => {
    expect(matchRegistry('POST', '/v1/workspaces/wks_1/posts/validate')).toEqual({
      kind: 'found',
      operation: expect.objectContaining({ id: 'validatePost' }),
      pathParameters: { workspace_id: 'wks_1' },
    });
    // As in API Gateway, another method falls to the parameter route (whose schema refuses the id).
    expect(matchRegistry('GET', '/v1/workspaces/wks_1/posts/validate')).toMatchObject({
      kind: 'found',
      operation: { id: 'getPost' },
      pathParameters: { post_id: 'validate' },
    });
  });

  it('answers wrong_method with GET for a POST to the workspace list', () => {
    expect(matchRegistry('POST', '/v1/workspaces')).toEqual({ kind: 'wrong_method', allowed: ['GET'] });
  });

  it('answers not_found for a path no operation has', () => {
    expect(matchRegistry('GET', '/v1/nothing-here')).toEqual({ kind: 'not_found' });
  });
});
