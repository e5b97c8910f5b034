import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { keys } from '../../shared/adapters/dynamodb/keys.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { inOneHour, postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/**
 * platformOptions over HTTP: given on create, stored in the table, read back (null when none);
 * another network's options are 422 PLATFORM_OPTIONS_MISMATCH on create, validate and PATCH; an
 * unknown option is 400 like any unknown field; PATCH replaces or removes them; the
 * Idempotency-Key sees x and twitter as one request.
 */

interface PostBody {
  id: string;
  status: string;
  platformOptions: Record<string, unknown> | null;
}

interface ValidationFailed {
  errors: { field: string; code: string; message: string }[];
}

describe('platformOptions on posts', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;
  let db: ReturnType<typeof makeDocumentClient>;

  const createId = async (body: unknown) => {
    const response = await posts.create(body);
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const read = async (response: Response) => {
    expect(response.status).toBe(200);
    return (await response.json()) as PostBody;
  };
  const storedItem = async (postId: string) =>
    (
      await db.send(
        new GetCommand({
          TableName: host.config.tables.main,
          Key: keys.post(tenant.tenantId, tenant.workspaceId, postId),
        }),
      )
    ).Item;
  const validate = (body: unknown) =>
    host.call(`${posts.base}/validate`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Options' });
    posts = postsClient(host, tenant);
    db = makeDocumentClient(
      makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint }),
    );
  });
  afterAll(async () => {
    db.destroy();
    await host.stop();
  });

  describe('create, then read', () => {
    it('keeps X reply settings given under x as twitter, in the table and on read', async () => {
      const id = await createId(
        tweet(tenant, { status: 'draft', platformOptions: { x: { replySettings: 'following' } } }),
      );

      const post = await read(await posts.get(id));

      expect(post.platformOptions).toEqual({ twitter: { replySettings: 'following' } });
      expect((await storedItem(id))?.platformOptions).toEqual({ twitter: { replySettings: 'following' } });
    });

    it('keeps LinkedIn visibility and an organization author, and lists them', async () => {
      const options = { linkedin: { visibility: 'CONNECTIONS', author: 'urn:li:organization:2414183' } };
      const id = await createId(linkedInPost(tenant, { platformOptions: options }));

      const post = await read(await posts.get(id));
      const listed = (await (await posts.list('?platform=linkedin')).json()) as { data: PostBody[] };

      expect(post).toMatchObject({ status: 'scheduled', platformOptions: options });
      expect(listed.data.find((item) => item.id === id)?.platformOptions).toEqual(options);
    });

    it.each([
      ['left out', {}],
      ['null', { platformOptions: null }],
      ['empty', { platformOptions: {} }],
    ])('answers null and stores nothing when options are %s', async (_case, extra) => {
      const id = await createId(tweet(tenant, { status: 'draft', ...extra }));

      expect((await read(await posts.get(id))).platformOptions).toBeNull();
      expect(await storedItem(id)).not.toHaveProperty('platformOptions');
    });
  });

  describe('another network’s options', () => {
    const mismatch = {
      field: 'platformOptions.twitter',
      code: 'PLATFORM_OPTIONS_MISMATCH',
      message: expect.stringContaining('platformOptions.linkedin'),
    };

    it('are 422 VALIDATION_FAILED on create, and validatePost answers the same item', async () => {
      const body = linkedInPost(tenant, { platformOptions: { x: { replySettings: 'verified' } } });

      const envelope = (await expectEnvelope(
        await posts.create(body),
        422,
        'VALIDATION_FAILED',
      )) as unknown as ValidationFailed;
      const validation = (await (await validate(body)).json()) as { valid: boolean; errors: unknown[] };

      expect(envelope.errors).toEqual([mismatch]);
      expect(validation).toMatchObject({ valid: false, errors: [mismatch] });
    });

    it('come with the network’s other violations in one answer', async () => {
      const body = linkedInPost(tenant, { content: 'x'.repeat(3001), platformOptions: { twitter: {} } });

      const envelope = (await expectEnvelope(
        await posts.create(body),
        422,
        'VALIDATION_FAILED',
      )) as unknown as ValidationFailed;

      expect(envelope.errors.map((item) => item.code)).toEqual([
        'TEXT_TOO_LONG',
        'PLATFORM_OPTIONS_MISMATCH',
      ]);
    });
  });

  describe('a body the schema refuses: 400 INVALID_REQUEST naming the field', () => {
    it.each([
      ['an unknown X option', tweet, { twitter: { quoteTweetId: '1' } }, 'platformOptions.twitter'],
      [
        'an unknown LinkedIn option',
        linkedInPost,
        { linkedin: { lifecycleState: 'DRAFT' } },
        'platformOptions.linkedin',
      ],
      ['a network that does not exist', tweet, { myspace: { privacyLevel: 'SELF_ONLY' } }, 'platformOptions'],
      [
        'a reply setting X lacks',
        tweet,
        { twitter: { replySettings: 'everyone' } },
        'platformOptions.twitter.replySettings',
      ],
      [
        'a person URN as author',
        linkedInPost,
        { linkedin: { author: 'urn:li:person:abc' } },
        'platformOptions.linkedin.author',
      ],
      ['twitter and x together', tweet, { twitter: {}, x: {} }, 'platformOptions.x'],
      ['options that are not an object', tweet, 'PUBLIC', 'platformOptions'],
    ] as const)('%s', async (_case, build, platformOptions, field) => {
      const response = await posts.create(build(tenant, { platformOptions }));

      const envelope = await expectEnvelope(response, 400, 'INVALID_REQUEST');

      expect(Object.keys(envelope.details as object)).toEqual([field]);
    });

    it('on validatePost and PATCH too', async () => {
      const id = await createId(tweet(tenant, { status: 'draft' }));
      const unknown = { twitter: { pinned: true } };

      await expectEnvelope(
        await validate(tweet(tenant, { platformOptions: unknown })),
        400,
        'INVALID_REQUEST',
      );
      await expectEnvelope(await posts.patch(id, { platformOptions: unknown }), 400, 'INVALID_REQUEST');
    });
  });

  describe('PATCH', () => {
    it('replaces the options of a scheduled post, and null removes them', async () => {
      const id = await createId(
        linkedInPost(tenant, { platformOptions: { linkedin: { visibility: 'PUBLIC', author: 'member' } } }),
      );

      const replaced = await read(
        await posts.patch(id, { platformOptions: { linkedin: { visibility: 'LOGGED_IN' } } }),
      );
      const removed = await read(await posts.patch(id, { platformOptions: null }));

      expect(replaced).toMatchObject({
        status: 'scheduled',
        platformOptions: { linkedin: { visibility: 'LOGGED_IN' } },
      });
      expect(removed).toMatchObject({ status: 'scheduled', platformOptions: null });
      expect(await storedItem(id)).not.toHaveProperty('platformOptions');
    });

    it('refuses another network’s options on a scheduled post with 422, and changes nothing', async () => {
      const options = { linkedin: { visibility: 'CONNECTIONS' } };
      const id = await createId(linkedInPost(tenant, { platformOptions: options }));

      const envelope = (await expectEnvelope(
        await posts.patch(id, { platformOptions: { twitter: { replySettings: 'following' } } }),
        422,
        'VALIDATION_FAILED',
      )) as unknown as ValidationFailed;

      expect(envelope.errors.map((item) => [item.field, item.code])).toEqual([
        ['platformOptions.twitter', 'PLATFORM_OPTIONS_MISMATCH'],
      ]);
      expect((await read(await posts.get(id))).platformOptions).toEqual(options);
    });

    it('is 409 conflict on a queued post, like any other change', async () => {
      const id = await createId(tweet(tenant));

      await expectEnvelope(
        await posts.patch(id, { platformOptions: { twitter: { replySettings: 'following' } } }),
        409,
        'conflict',
      );
      expect((await read(await posts.get(id))).platformOptions).toBeNull();
    });

    it('sends an approved post back to review when its options change', async () => {
      const reviewed = await host.admin.bootstrap({ name: 'Reviewed options' });
      const client = postsClient(host, reviewed);
      await host.deps.tenancy.setWorkspacePolicies(reviewed.tenantId, reviewed.workspaceId, {
        requireApproval: true,
      });
      const created = await client.create(
        tweet(reviewed, { status: 'scheduled', scheduledAt: inOneHour(), platformOptions: { x: {} } }),
      );
      const id = ((await created.json()) as { id: string }).id;
      expect((await read(await client.approve(id))).status).toBe('scheduled');

      const changed = await read(
        await client.patch(id, { platformOptions: { twitter: { replySettings: 'subscribers' } } }),
      );

      expect(changed).toMatchObject({
        status: 'pending_approval',
        platformOptions: { twitter: { replySettings: 'subscribers' } },
      });
    });
  });

  describe('Idempotency-Key', () => {
    it('replays a create whose options name x where the first named twitter, and refuses other options', async () => {
      const key = `options-${Date.now()}`;
      const first = await posts.create(
        tweet(tenant, { platformOptions: { twitter: { replySettings: 'following' } } }),
        {
          'Idempotency-Key': key,
        },
      );
      const alias = await posts.create(
        tweet(tenant, { platformOptions: { x: { replySettings: 'following' } } }),
        {
          'Idempotency-Key': key,
        },
      );
      const other = await posts.create(
        tweet(tenant, { platformOptions: { x: { replySettings: 'verified' } } }),
        {
          'Idempotency-Key': key,
        },
      );

      expect(first.status).toBe(201);
      expect(alias.headers.get('idempotent-replayed')).toBe('true');
      expect(await alias.json()).toEqual(await first.json());
      await expectEnvelope(other, 422, 'idempotency_key_reused');
    });
  });
});

/** A text post for the professional network, scheduled an hour ahead. */
function linkedInPost(tenant: BootstrapResult, overrides: Record<string, unknown> = {}) {
  return {
    platform: 'linkedin',
    accountId: tenant.accounts.linkedin,
    status: 'scheduled',
    scheduledAt: inOneHour(),
    postType: 'text',
    content: 'Hiring!',
    ...overrides,
  };
}
