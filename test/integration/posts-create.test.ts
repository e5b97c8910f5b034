import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import {
  inOneHour,
  POLICED_WORKSPACE,
  POLICY_FACET_CASES,
  postsClient,
  seedMedia,
  tweet,
} from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

describe('POST /v1/workspaces/{workspace_id}/posts', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Posts' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
  });

  describe('accepts', () => {
    it('publish → 201 queued with the create response fields, and the full post on read', async () => {
      const response = await posts.create(tweet(tenant, { platform: 'x' }));
      expect(response.status).toBe(201);
      const created = (await response.json()) as Record<string, string>;
      expect(Object.keys(created).sort()).toEqual(['createdAt', 'id', 'platform', 'postType', 'status']);
      expect(created).toMatchObject({ status: 'queued', platform: 'twitter', postType: 'text' });
      expect(created.id).toMatch(/^pst_[0-9A-Z]{26}$/);
      expect(created.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

      const read = (await (await posts.get(created.id as string)).json()) as Record<string, unknown>;
      expect(read).toMatchObject({
        id: created.id,
        workspaceId: tenant.workspaceId,
        accountId: tenant.accounts.twitter,
        platform: 'twitter',
        status: 'queued',
        content: 'hello',
        media: [],
        scheduledAt: null,
        publishedAt: null,
        platformPostId: null,
        platformPostUrl: null,
        attempts: 0,
        error: null,
        approval: null,
        createdAt: created.createdAt,
      });
    });

    it('scheduled → scheduled, draft → draft (even when incomplete)', async () => {
      const scheduled = await posts.create(tweet(tenant, { status: 'scheduled', scheduledAt: inOneHour() }));
      expect(((await scheduled.json()) as { status: string }).status).toBe('scheduled');
      const draft = await posts.create(
        tweet(tenant, { status: 'draft', postType: 'image', content: 'no image yet' }),
      );
      expect(draft.status).toBe(201);
      expect(((await draft.json()) as { status: string }).status).toBe('draft');
    });

    it('a carousel of uploaded images and URL media', async () => {
      const first = await seedMedia(host, tenant, 'image/jpeg');
      const second = await seedMedia(host, tenant, 'image/png');
      const response = await posts.create({
        platform: 'linkedin',
        accountId: tenant.accounts.linkedin,
        status: 'publish',
        postType: 'carousel',
        content: 'Our launch, in pictures',
        media: [
          { id: first, alt: 'The team' },
          { id: second },
          { url: 'https://cdn.example.com/a.jpg', type: 'image' },
        ],
      });
      expect(response.status).toBe(201);
    });

    it('userTags on an instagram image', async () => {
      const image = await seedMedia(host, tenant, 'image/jpeg');
      const response = await posts.create({
        platform: 'instagram',
        accountId: tenant.accounts.instagram,
        status: 'publish',
        postType: 'image',
        content: 'Hi',
        media: [{ id: image, userTags: [{ username: 'ann', x: 0, y: 1 }] }],
      });
      expect(response.status).toBe(201);
    });
  });

  describe('answers 400 INVALID_REQUEST', () => {
    const cases: [string, (t: BootstrapResult) => unknown, string][] = [
      ['an unknown platform', (t) => tweet(t, { platform: 'myspace' }), 'platform'],
      ['an unknown postType', (t) => tweet(t, { postType: 'poll' }), 'postType'],
      ['status scheduled without scheduledAt', (t) => tweet(t, { status: 'scheduled' }), 'scheduledAt'],
      [
        'scheduledAt without Z or an offset (a local time)',
        (t) => tweet(t, { status: 'scheduled', scheduledAt: '2030-01-01T10:00:00' }),
        'scheduledAt',
      ],
      [
        'scheduledAt that is not a date',
        (t) => tweet(t, { status: 'scheduled', scheduledAt: 'tomorrow' }),
        'scheduledAt',
      ],
      [
        'scheduledAt in the past',
        (t) => tweet(t, { status: 'scheduled', scheduledAt: '2020-01-01T00:00:00Z' }),
        'scheduledAt',
      ],
      [
        'media with both id and url',
        (t) =>
          tweet(t, {
            postType: 'image',
            media: [{ id: 'med_01ARZ3NDEKTSV4RRFFQ69G5FAV', url: 'https://a.example/x.jpg', type: 'image' }],
          }),
        'media[0]',
      ],
      [
        'media with neither id nor url',
        (t) => tweet(t, { postType: 'image', media: [{ alt: 'x' }] }),
        'media[0]',
      ],
      [
        'an HTTP media url',
        (t) => tweet(t, { postType: 'image', media: [{ url: 'http://a.example/x.jpg', type: 'image' }] }),
        'media[0].url',
      ],
      [
        'a url without its type',
        (t) => tweet(t, { postType: 'image', media: [{ url: 'https://a.example/x.jpg' }] }),
        'media[0].type',
      ],
      [
        'a loopback media url',
        (t) => tweet(t, { postType: 'image', media: [{ url: 'https://127.0.0.1/x.jpg', type: 'image' }] }),
        'media[0].url',
      ],
      [
        'a decimal loopback media url',
        (t) => tweet(t, { postType: 'image', media: [{ url: 'https://2130706433/x.jpg', type: 'image' }] }),
        'media[0].url',
      ],
      [
        'a localhost media url',
        (t) => tweet(t, { postType: 'image', media: [{ url: 'https://localhost/x.jpg', type: 'image' }] }),
        'media[0].url',
      ],
      [
        'an RFC 1918 media url',
        (t) => tweet(t, { postType: 'image', media: [{ url: 'https://10.1.2.3/x.jpg', type: 'image' }] }),
        'media[0].url',
      ],
      [
        'the metadata address',
        (t) =>
          tweet(t, { postType: 'image', media: [{ url: 'https://169.254.169.254/latest', type: 'image' }] }),
        'media[0].url',
      ],
      [
        'an IPv6 loopback url',
        (t) => tweet(t, { postType: 'image', media: [{ url: 'https://[::1]/x.jpg', type: 'image' }] }),
        'media[0].url',
      ],
      [
        'an IPv4-mapped IPv6 url',
        (t) =>
          tweet(t, {
            postType: 'image',
            media: [{ url: 'https://[::ffff:127.0.0.1]/x.jpg', type: 'image' }],
          }),
        'media[0].url',
      ],
      [
        'credentials in the url',
        (t) =>
          tweet(t, {
            postType: 'image',
            media: [{ url: 'https://user:pw@cdn.example.com/x.jpg', type: 'image' }],
          }),
        'media[0].url',
      ],
      [
        'userTags outside 0–1',
        (t) => ({
          ...tweet(t),
          platform: 'instagram',
          accountId: t.accounts.instagram,
          postType: 'image',
          media: [
            {
              url: 'https://cdn.example.com/a.jpg',
              type: 'image',
              userTags: [{ username: 'a', x: 1.5, y: 0 }],
            },
          ],
        }),
        'media[0].userTags[0].x',
      ],
      [
        'userTags on a non-instagram post',
        (t) =>
          tweet(t, {
            postType: 'image',
            media: [
              {
                url: 'https://cdn.example.com/a.jpg',
                type: 'image',
                userTags: [{ username: 'a', x: 0.5, y: 0.5 }],
              },
            ],
          }),
        'media[0].userTags',
      ],
      [
        'a content item without text or media',
        (t) => tweet(t, { postType: 'thread', content: [{ text: 'one' }, {}] }),
        'content[1]',
      ],
      ['an unknown field', (t) => tweet(t, { colour: 'blue' }), 'body'],
    ];
    it.each(cases)('for %s', async (_case, body, field) => {
      const response = await posts.create(body(tenant));
      const envelope = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      expect(Object.keys(envelope.details as object)).toContain(field);
    });

    it.each([
      ['empty', ''],
      ['over 255 characters', 'k'.repeat(256)],
      ['with a space', 'has space'],
    ])('for an Idempotency-Key that is %s', async (_case, key) => {
      const response = await posts.create(tweet(tenant), { 'Idempotency-Key': key });
      const envelope = await expectEnvelope(response, 400, 'INVALID_REQUEST');
      expect(Object.keys(envelope.details as object)).toEqual(['idempotency-key']);
    });
  });

  describe('answers 422 VALIDATION_FAILED with every violation', () => {
    const codes = async (response: Response) => {
      const envelope = await expectEnvelope(response, 422, 'VALIDATION_FAILED');
      return (envelope.errors as { field: string; code: string }[]).map((e) => `${e.field}:${e.code}`);
    };

    it('for a postType the platform does not have', async () => {
      expect(await codes(await posts.create(tweet(tenant, { postType: 'reel' })))).toContain(
        'postType:POST_TYPE_NOT_ALLOWED',
      );
    });

    it('for text over 280 weighted characters, counting a URL as 23', async () => {
      const url = `https://example.com/${'p'.repeat(200)}`;
      const fits = await posts.create(tweet(tenant, { content: `${'a'.repeat(256)} ${url}` }));
      expect(fits.status).toBe(201);
      const cjk = await posts.create(tweet(tenant, { content: '日'.repeat(141) }));
      expect(await codes(cjk)).toEqual(['content:TEXT_TOO_LONG']);
    });

    it('for a document outside the professional network, and an account of another platform, at once', async () => {
      const pdf = await seedMedia(host, tenant, 'application/pdf');
      const response = await posts.create(
        tweet(tenant, { accountId: tenant.accounts.linkedin, postType: 'image', media: [{ id: pdf }] }),
      );
      const found = await codes(response);
      expect(found).toContain('accountId:ACCOUNT_PLATFORM_MISMATCH');
      expect(found.some((c) => c.endsWith(':DOCUMENT_NOT_ALLOWED'))).toBe(true);
    });

    it('for a thread with one part too long and another with five images', async () => {
      const images = await Promise.all([1, 2, 3, 4, 5].map(() => seedMedia(host, tenant, 'image/png')));
      const response = await posts.create(
        tweet(tenant, {
          postType: 'thread',
          content: [{ text: 'x'.repeat(281) }, { text: 'ok', media: images.map((id) => ({ id })) }],
        }),
      );
      const found = await codes(response);
      expect(found).toContain('content[0].text:TEXT_TOO_LONG');
      expect(found.some((c) => c.startsWith('content[1]') && c.includes('TOO_MANY_MEDIA'))).toBe(true);
    });

    it('for media that does not exist in this workspace, and media still pending on publish', async () => {
      const pending = await seedMedia(host, tenant, 'image/png', 'pending');
      const other = await host.admin.bootstrap({ name: 'Elsewhere' });
      const foreign = await seedMedia(host, other, 'image/png');
      const response = await posts.create(
        tweet(tenant, { postType: 'image', media: [{ id: pending }, { id: foreign }] }),
      );
      expect(await codes(response)).toEqual([
        'media[0].id:MEDIA_NOT_UPLOADED',
        'media[1].id:MEDIA_NOT_FOUND',
      ]);
    });

    // An account that is none of the workspace's is 404 not_found: errors-that-name-the-fix.test.ts.
    it('for an account that is disconnected', async () => {
      const account = await host.admin.createSandboxAccount({
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        platform: 'twitter',
      });
      await host.deps.tenancy.putAccount({ ...account, status: 'disconnected' });
      expect(await codes(await posts.create(tweet(tenant, { accountId: account.accountId })))).toEqual([
        'accountId:ACCOUNT_DISCONNECTED',
      ]);
    });

    it('for a draft naming an account of another network; a draft on a disconnected account is kept', async () => {
      // Prepare
      const disconnected = await host.admin.createSandboxAccount({
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        platform: 'twitter',
      });
      await host.deps.tenancy.putAccount({ ...disconnected, status: 'disconnected' });

      // Act
      const mismatch = await posts.create(
        tweet(tenant, { status: 'draft', accountId: tenant.accounts.linkedin }),
      );
      const kept = await posts.create(tweet(tenant, { status: 'draft', accountId: disconnected.accountId }));

      // Assess
      expect(await codes(mismatch)).toEqual(['accountId:ACCOUNT_PLATFORM_MISMATCH']);
      expect(kept.status).toBe(201);
    });
  });

  describe('answers 403 policy_violation with facet and reason', () => {
    let policed: BootstrapResult;
    let client: ReturnType<typeof postsClient>;

    beforeAll(async () => {
      policed = await host.admin.bootstrap({ name: 'Policed' });
      client = postsClient(host, policed);
      await host.deps.tenancy.setWorkspacePolicies(policed.tenantId, policed.workspaceId, POLICED_WORKSPACE);
    });

    it.each(POLICY_FACET_CASES)('facet %s', async (facet, body) => {
      const envelope = await expectEnvelope(await client.create(body(policed)), 403, 'policy_violation');
      expect(envelope.facet).toBe(facet);
      expect(envelope.reason).toBeTypeOf('string');
    });

    it('a post within every policy is accepted', async () => {
      const response = await client.create(tweet(policed, { content: 'Returns are never guaranteed.' }));
      expect(response.status).toBe(201);
    });
  });
});
