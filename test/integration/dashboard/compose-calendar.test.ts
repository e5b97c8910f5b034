import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { postsClient, tweet } from '../../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

// A Wednesday, 10:00:20 UTC; the clock is ours, so the week and "the future" are fixed.
const NOW = Date.parse('2030-01-09T10:00:20Z');
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const localInput = (ms: number) => iso(ms).slice(0, 16);
/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

interface ListedPost {
  id: string;
  accountId: string;
  status: string;
  content: unknown;
  media: Array<{ id?: string; alt?: string }>;
  scheduledAt: string | null;
  platformOptions: unknown;
}

/**
 * The composer and the calendar over real HTTP: options fields generated from the API's schemas,
 * Check through validatePost, one post per account through createPost (sending the form again never
 * posts twice), an image uploaded through the presigned URL; the week with its collisions, and a
 * post moved from it.
 */
describe('dashboard: composer and calendar', () => {
  const clock = fixedClock(NOW);
  let host: TestHost;
  let tenant: BootstrapResult;
  let admin: DashboardClient;
  let composer: string;

  const apiPosts = async () => {
    const response = await postsClient(host, tenant).list('?limit=100');
    return ((await response.json()) as { data: ListedPost[] }).data;
  };

  beforeAll(async () => {
    host = await startTestHost({ clock });
    tenant = await host.admin.bootstrap({ name: 'Composer', planTier: 'enterprise' });
    ({ client: admin } = await signedInAs(host, {
      role: 'workspace_admin',
      tenantId: tenant.tenantId,
      workspaceIds: [tenant.workspaceId],
    }));
    composer = `/workspaces/${tenant.workspaceId}/posts/new`;
  });
  afterAll(() => host?.stop());

  it("offers the workspace's accounts and each network's options generated from its schema", async () => {
    // Act
    const form = await admin.get(composer);

    // Assess
    expect(form.status).toBe(200);
    expect(form.html).toContain(`value="${tenant.accounts.twitter}"`);
    expect(form.html).toMatch(
      /<label for="field-opt-tiktok-privacyLevel">TikTok: privacyLevel<\/label><select[^>]*>.*<option value="SELF_ONLY">/,
    );
    expect(form.html).toMatch(
      /<label for="field-opt-tiktok-disableDuet">TikTok: disableDuet<\/label><select[^>]*><option value="" selected>Network default<\/option><option value="true">Yes/,
    );
    expect(form.html).toContain('Through the API only');
  });

  it("shows validatePost's answer for each account on Check, creating nothing", async () => {
    // Act
    const checked = await admin.post(composer, {
      composeKey: 'check-1',
      accountIds: [tenant.accounts.twitter, tenant.accounts.tiktok],
      postType: 'text',
      content: 'checking',
      intent: 'check',
    });

    // Assess
    expect(checked.status).toBe(200);
    expect(checked.html).toMatch(
      /Composer X[^<]*<\/strong>: <span class="badge good">ready<\/span>|: <span class="badge good">ready<\/span>/,
    );
    expect(checked.html).toContain('<span class="badge bad">refused</span>');
    expect(await apiPosts()).toEqual([]);
  });

  it('asks for an account before anything else', async () => {
    // Act
    const refused = await admin.post(composer, {
      composeKey: 'none',
      content: 'x',
      postType: 'text',
      intent: 'draft',
    });

    // Assess
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('Choose at least one account.');
  });

  it('uploads an image through the presigned URL and offers it ticked', async () => {
    // Arrange
    const form = new FormData();
    form.set('_csrf', await admin.csrfToken());
    form.set('file', new Blob([PNG], { type: 'image/png' }), 'dot.png');

    // Act
    const uploaded = await fetch(`${host.baseUrl}/dashboard${composer}/media`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: `sp_session=${admin.cookie('sp_session')}`, Origin: host.baseUrl },
      body: form,
    });
    const location = String(uploaded.headers.get('location'));
    const mediaId = String(new URL(location, host.baseUrl).searchParams.get('media'));
    const back = await admin.get(location);

    // Assess
    expect(uploaded.status).toBe(303);
    expect(mediaId).toMatch(/^med_/);
    const media = await host.call(`/v1/workspaces/${tenant.workspaceId}/media/${mediaId}`, {
      apiKey: tenant.apiKey,
    });
    expect(((await media.json()) as { status: string }).status).toBe('uploaded');
    expect(back.html).toContain('Media uploaded');
    expect(back.html).toMatch(new RegExp(`value="${mediaId}" checked><label[^>]*>dot.png \\(image/png\\)`));
  });

  it('schedules one post per account with the image, and the same form sent again posts nothing more', async () => {
    // Arrange
    const media = await host.call(`/v1/workspaces/${tenant.workspaceId}/media`, { apiKey: tenant.apiKey });
    const mediaId = ((await media.json()) as { data: Array<{ mediaId: string }> }).data[0]?.mediaId ?? '';
    const form = {
      composeKey: 'schedule-1',
      accountIds: [tenant.accounts.twitter, tenant.accounts.linkedin],
      postType: 'image',
      content: 'launch day',
      mediaIds: [mediaId],
      [`alt.${mediaId}`]: 'a dot',
      'opt.twitter.replySettings': 'following',
      'opt.linkedin.visibility': 'CONNECTIONS',
      scheduledAt: localInput(NOW + 60 * MINUTE),
      intent: 'schedule',
    };

    // Act
    const first = await admin.post(composer, form);
    const again = await admin.post(composer, form);

    // Assess
    expect(first.status).toBe(200);
    expect(first.html).toContain('2 posts created.');
    expect(again.status).toBe(200);
    const posts = await apiPosts();
    expect(posts).toHaveLength(2);
    const byAccount = Object.fromEntries(posts.map((post) => [post.accountId, post]));
    expect(byAccount[tenant.accounts.twitter]).toMatchObject({
      status: 'scheduled',
      content: 'launch day',
      media: [{ id: mediaId, alt: 'a dot' }],
      scheduledAt: iso(NOW + 60 * MINUTE - 20_000),
      platformOptions: { twitter: { replySettings: 'following' } },
    });
    expect(byAccount[tenant.accounts.linkedin]).toMatchObject({
      platformOptions: { linkedin: { visibility: 'CONNECTIONS' } },
    });
  });

  it('shows the week with collisions marked, and moves a post from it back to the calendar', async () => {
    // Arrange: a second X post 10 minutes after the first collides with it.
    const created = await postsClient(host, tenant).create(
      tweet(tenant, {
        status: 'scheduled',
        scheduledAt: iso(NOW + 70 * MINUTE - 20_000),
        content: 'too close',
      }),
    );
    const closeId = ((await created.json()) as { id: string }).id;
    const calendar = `/workspaces/${tenant.workspaceId}/calendar`;

    // Act
    const week = await admin.get(`${calendar}?view=week&date=2030-01-09`);
    const back = `/dashboard${calendar}?view=week&date=2030-01-07`;
    const moved = await admin.post(`/workspaces/${tenant.workspaceId}/posts/${closeId}/reschedule`, {
      [`scheduledAt-${closeId}`]: localInput(NOW + 5 * 60 * MINUTE),
      back,
    });
    const after = await admin.get(String(moved.location));
    const month = await admin.get(
      `${calendar}?view=month&date=2030-01-20&accountId=${tenant.accounts.twitter}`,
    );

    // Assess
    expect(week.status).toBe(200);
    expect(week.html).toContain('<h2 id="calendar-heading">Week of 7 January 2030</h2>');
    expect(week.html.match(/class="calendar-post collision"/g)).toHaveLength(2);
    expect(week.html).toContain(`<li class="calendar-post collision" data-post-id="${closeId}">`);
    expect(moved.status).toBe(303);
    expect(moved.location).toBe(`${back}&done=rescheduled`);
    expect(after.html).toContain('Post rescheduled.');
    expect(after.html).not.toContain('class="calendar-post collision"');
    expect(month.html).toContain('<h2 id="calendar-heading">January 2030</h2>');
    expect(month.html.match(/class="calendar-post"/g)).toHaveLength(2);
  });

  it('never goes back anywhere but the calendar after a reschedule', async () => {
    // Arrange
    const created = await postsClient(host, tenant).create(
      tweet(tenant, { status: 'scheduled', scheduledAt: iso(NOW + 9 * 60 * MINUTE), content: 'elsewhere' }),
    );
    const postId = ((await created.json()) as { id: string }).id;

    // Act
    const moved = await admin.post(`/workspaces/${tenant.workspaceId}/posts/${postId}/reschedule`, {
      scheduledAt: localInput(NOW + 10 * 60 * MINUTE),
      back: 'https://evil.example/dashboard/workspaces',
    });

    // Assess
    expect(moved.location).toBe(
      `/dashboard/workspaces/${tenant.workspaceId}/posts/${postId}?done=rescheduled`,
    );
  });

  it('sends a first comment and a link card with each post, and Check says where a network shows no card', async () => {
    // Act: Check for X (takes both) and Instagram (shows no link cards), then a draft for X.
    const checked = await admin.post(composer, {
      composeKey: 'comment-check',
      accountIds: [tenant.accounts.twitter, tenant.accounts.instagram],
      postType: 'text',
      content: 'with a comment',
      linkUrl: 'https://example.com/notes',
      firstComment: 'More below',
      intent: 'check',
    });
    const drafted = await admin.post(composer, {
      composeKey: 'comment-draft',
      accountIds: [tenant.accounts.twitter],
      postType: 'text',
      content: 'with a comment',
      linkUrl: 'https://example.com/notes',
      firstComment: 'More below',
      intent: 'draft',
    });

    // Assess
    expect(checked.html).toContain('Instagram shows no link cards');
    expect(drafted.status).toBeLessThan(400);
    const [post] = (await apiPosts()).filter(
      (listed) => listed.accountId === tenant.accounts.twitter && listed.content === 'with a comment',
    );
    const read = await (await postsClient(host, tenant).get(post?.id ?? '')).json();
    expect(read).toMatchObject({
      firstComment: { text: 'More below', status: 'waiting' },
      link: { url: 'https://example.com/notes' },
    });
    await postsClient(host, tenant).cancel(post?.id ?? '');
  });

  it("gives the posts it creates the request's trace, as the API does (docs/operating.md, Traces)", async () => {
    // Prepare
    const root = '1-6748a1b2-00112233445566778899aabb';

    // Act
    const saved = await admin.post(
      composer,
      {
        composeKey: 'traced-1',
        accountIds: [tenant.accounts.twitter],
        postType: 'text',
        content: 'traced from the composer',
        intent: 'draft',
      },
      { headers: { 'X-Amzn-Trace-Id': `Root=${root};Sampled=1` } },
    );

    // Assess
    expect(saved.status).toBe(200);
    const created = (await apiPosts()).find((post) => post.content === 'traced from the composer');
    const stored = await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, String(created?.id));
    expect(stored?.trace).toBe(`Root=${root};Sampled=1`);
  });
});
