import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/**
 * Over HTTP, the errors a newcomer meets first say what to change (docs/errors.md, "Messages that
 * name the fix"): an unknown field names the closest one, a field left out is "Required", and an
 * account the workspace does not have is 404 not_found naming it, never a network rule.
 */
describe('REST errors that name the fix', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let other: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;
  const UNKNOWN_ACCOUNT = 'acc_01JD0000000000000000000099';

  const validate = (body: unknown) =>
    host.call(`${posts.base}/validate`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const postCount = async () =>
    ((await (await posts.list('?limit=100')).json()) as { data: unknown[] }).data.length;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Fixable' });
    other = await host.admin.bootstrap({ name: 'Neighbour' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
  });

  it('an unknown body field names the closest valid one, at the top and nested', async () => {
    const { content: _content, ...rest } = tweet(tenant);
    const response = await posts.create({
      ...rest,
      contnet: 'hello',
      postType: 'thread',
      content: [{ text: 'one', txet: 'two' }],
    });
    const envelope = await expectEnvelope(response, 400, 'INVALID_REQUEST');
    expect(envelope.details).toEqual({
      body: ['Unknown field `contnet`; did you mean `content`?'],
      'content[0]': ['Unknown field `txet`; did you mean `text`?'],
    });
  });

  it('an unknown field no valid one is close to lists what the object takes', async () => {
    const envelope = await expectEnvelope(
      await posts.create(tweet(tenant, { colour: 'blue' })),
      400,
      'INVALID_REQUEST',
    );
    const [message] = (envelope.details as Record<string, string[]>).body ?? [];
    expect(message).toMatch(/^Unknown field `colour`; expected one of `platform`, `accountId`, .*`content`/);
  });

  it('a field left out is "Required", whatever its type (id, enum, union)', async () => {
    const { content: _content, postType: _postType, accountId: _accountId, ...rest } = tweet(tenant);
    const envelope = await expectEnvelope(await posts.create(rest), 400, 'INVALID_REQUEST');
    expect(envelope.details).toEqual({
      accountId: ['Required'],
      postType: ['Required'],
      content: ['Required'],
    });
  });

  describe('an account the workspace does not have: 404 not_found naming it, nothing created', () => {
    it.each([
      ['an unknown account, to publish', () => tweet(tenant, { accountId: UNKNOWN_ACCOUNT })],
      [
        'an unknown account, as a draft',
        () => tweet(tenant, { accountId: UNKNOWN_ACCOUNT, status: 'draft' }),
      ],
      [
        "another tenant's account, as a draft",
        () => tweet(tenant, { accountId: other.accounts.twitter, status: 'draft' }),
      ],
    ])('%s: on create and on validate', async (_case, body) => {
      const before = await postCount();
      const accountId = body().accountId;
      for (const response of [await posts.create(body()), await validate(body())]) {
        const envelope = await expectEnvelope(response, 404, 'not_found');
        expect(envelope.message).toBe(`No account ${accountId} in this workspace.`);
        expect(envelope).not.toHaveProperty('errors');
      }
      expect(await postCount()).toBe(before);
    });

    it('an account of the workspace on another network stays a 422 rule, ACCOUNT_PLATFORM_MISMATCH', async () => {
      const envelope = await expectEnvelope(
        await posts.create(tweet(tenant, { accountId: tenant.accounts.linkedin })),
        422,
        'VALIDATION_FAILED',
      );
      expect(envelope.errors).toEqual([
        expect.objectContaining({ field: 'accountId', code: 'ACCOUNT_PLATFORM_MISMATCH' }),
      ]);
    });
  });
});
