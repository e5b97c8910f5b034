import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../shared/domain/ids.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { FEED_SETTLE_MS } from '../../../shared/services/webhooks/read-feed.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { postsClient, tweet } from '../../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

// 20 s into a minute of the present, far from a rate-limit window's edge; the clock is ours to move.
const NOW = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** A `datetime-local` value, in UTC as the form reads it. */
const localInput = (ms: number) => iso(ms).slice(0, 16);

/**
 * The posts pages over real HTTP: the listing filtered by status, platform, account and
 * scheduled time, a page at a time; a post's detail with its error and its status history from
 * the event feed; never another workspace's post.
 */
describe('dashboard: posts', () => {
  const clock = fixedClock(NOW);
  let host: TestHost;
  let tenant: BootstrapResult;
  let client: DashboardClient;
  let postsPage: string;
  const created: Record<string, string> = {};

  const create = async (target: BootstrapResult, body: Record<string, unknown>) => {
    const response = await postsClient(host, target).create(body);
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };

  beforeAll(async () => {
    host = await startTestHost({ clock });
    tenant = await host.admin.bootstrap({ name: 'Posts page', planTier: 'enterprise' });
    ({ client } = await signedInAs(host, {
      role: 'workspace_admin',
      tenantId: tenant.tenantId,
      workspaceIds: [tenant.workspaceId],
    }));
    postsPage = `/workspaces/${tenant.workspaceId}/posts`;
    created.queuedTweet = await create(tenant, tweet(tenant, { content: 'queued tweet' }));
    created.draftTweet = await create(tenant, tweet(tenant, { status: 'draft', content: 'draft tweet' }));
    created.draftLinkedIn = await create(
      tenant,
      tweet(tenant, {
        platform: 'linkedin',
        accountId: tenant.accounts.linkedin,
        status: 'draft',
        content: 'draft on linkedin',
      }),
    );
    created.soon = await create(tenant, tweet(tenant, { status: 'scheduled', scheduledAt: iso(NOW + HOUR) }));
    created.later = await create(
      tenant,
      tweet(tenant, { status: 'scheduled', scheduledAt: iso(NOW + 3 * HOUR) }),
    );
  });
  afterAll(async () => {
    await host?.stop();
  });

  const listed = (html: string) => Object.entries(created).filter(([, id]) => html.includes(`>${id}</a>`));
  const names = (html: string) => listed(html).map(([name]) => name);

  it('lists every post of the workspace with a link to its page, and the filter form', async () => {
    // Act
    const answer = await client.get(postsPage);

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.html).toContain('<h1>Posts</h1>');
    expect(names(answer.html).sort()).toEqual(Object.keys(created).sort());
    expect(answer.html).toContain(`href="/dashboard${postsPage}/${created.soon}"`);
    for (const label of ['Status', 'Account', 'Platform', 'Scheduled from', 'Scheduled to']) {
      expect(answer.html).toContain(`>${label}</label>`);
    }
    expect(answer.html).toContain('<button type="submit">Filter</button>');
  });

  it('filters by status, by platform and by account', async () => {
    // Act
    const drafts = await client.get(`${postsPage}?status=draft&platform=&accountId=`);
    const linkedIn = await client.get(`${postsPage}?status=&platform=linkedin`);
    const ofTheTweetAccount = await client.get(`${postsPage}?accountId=${tenant.accounts.twitter}`);

    // Assess
    expect(names(drafts.html).sort()).toEqual(['draftLinkedIn', 'draftTweet']);
    expect(drafts.html).toContain('<option value="draft" selected>');
    expect(names(linkedIn.html)).toEqual(['draftLinkedIn']);
    expect(names(ofTheTweetAccount.html).sort()).toEqual(['draftTweet', 'later', 'queuedTweet', 'soon']);
  });

  it('filters scheduled posts by time, reading the form’s times as UTC', async () => {
    // Act
    const answer = await client.get(
      `${postsPage}?status=scheduled&scheduledFrom=${localInput(NOW + 2 * HOUR)}&scheduledTo=${localInput(NOW + 4 * HOUR)}`,
    );

    // Assess
    expect(answer.status).toBe(200);
    expect(names(answer.html)).toEqual(['later']);
  });

  it('explains a filter the listing refuses, without listing anything', async () => {
    // Act
    const answer = await client.get(
      `${postsPage}?scheduledFrom=${localInput(NOW + 4 * HOUR)}&scheduledTo=${localInput(NOW + HOUR)}`,
    );

    // Assess
    expect(answer.status).toBe(422);
    expect(answer.html).toContain('class="error-summary"');
    expect(answer.html).toContain('Must not be later than scheduledTo.');
    expect(names(answer.html)).toEqual([]);
  });

  it('pages through a long listing with the cursor, keeping the filters', async () => {
    // Prepare
    const busy = await host.admin.bootstrap({ name: 'Busy', planTier: 'enterprise' });
    const ids = new Set<string>();
    for (let i = 0; i < 26; i++)
      ids.add(await create(busy, tweet(busy, { status: 'draft', content: `n${i}` })));
    const { client: busyAdmin } = await signedInAs(host, { role: 'owner', tenantId: busy.tenantId });

    // Act
    const first = await busyAdmin.get(`/workspaces/${busy.workspaceId}/posts?status=draft`);
    const next = /<a href="([^"]+)" rel="next">Next page<\/a>/
      .exec(first.html)?.[1]
      ?.replaceAll('&amp;', '&');
    const second = await busyAdmin.get(String(next));

    // Assess
    expect(next).toContain('status=draft');
    expect(next).toContain('cursor=');
    const shown = (html: string) => [...ids].filter((id) => html.includes(`>${id}</a>`));
    expect(shown(first.html)).toHaveLength(25);
    expect(shown(second.html)).toHaveLength(1);
    expect(second.html).not.toContain('rel="next"');
  });

  it("shows a post's facts, its error by code and our message, and its status history from the feed", async () => {
    // Prepare: the post failed on the network; the feed holds its events and another post's.
    const postId = created.queuedTweet ?? '';
    const stored = await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, postId);
    if (!stored) throw new Error('The post was not stored.');
    await host.deps.posts.update(
      {
        ...stored,
        status: 'failed',
        error: {
          origin: 'platform',
          code: 'PLATFORM_REJECTED',
          message: 'The network refused the post as a duplicate.',
          platformRawCode: 'raw-duplicate-187',
          retryable: false,
        },
        version: stored.version + 1,
      },
      stored.version,
    );
    const append = async (atMs: number, type: string, data: Record<string, unknown>) => {
      const event = {
        id: newId('event', atMs),
        type,
        createdAt: iso(atMs),
        workspaceId: tenant.workspaceId,
        data,
      };
      await host.deps.webhooks.appendEvents([{ ...event, tenantId: tenant.tenantId }]);
    };
    await append(NOW + 1_000, 'post.queued', { postId, status: 'queued' });
    await append(NOW + 1_500, 'post.queued', { postId: created.draftTweet, status: 'queued' });
    await append(NOW + 2_000, 'post.failed', { postId, status: 'failed' });
    // The feed holds back events younger than FEED_SETTLE_MS: move past the last one.
    clock.advance(2_001 + FEED_SETTLE_MS);

    // Act
    const answer = await client.get(`${postsPage}/${postId}`);

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.html).toContain(`<h1>Post ${postId}</h1>`);
    expect(answer.html).toContain('<dt>Status</dt><dd>failed</dd>');
    expect(answer.html).toContain('<code>PLATFORM_REJECTED</code>');
    expect(answer.html).toContain('The network refused the post as a duplicate.');
    expect(answer.html).not.toContain('raw-duplicate-187');
    expect(answer.html).toContain('<h2 id="history-heading">Status history</h2>');
    const history = answer.html.slice(answer.html.indexOf('history-heading'));
    const rows = [...history.matchAll(/<tr><th scope="row">([a-z.]+)<\/th><td><time datetime="([^"]+)"/g)];
    expect(rows.map((row) => [row[1], row[2]])).toEqual([
      ['post.queued', iso(NOW + 1_000)],
      ['post.failed', iso(NOW + 2_000)],
    ]);
  });

  it('shows the options a post was given, its link card and its first comment with how it went', async () => {
    // Prepare: a published post whose first comment the network refused.
    const postId = await create(
      tenant,
      tweet(tenant, {
        status: 'draft',
        content: 'Read the launch notes',
        platformOptions: { twitter: { replySettings: 'following' } },
        link: { url: 'https://example.com/launch' },
        firstComment: { text: 'More in the replies' },
      }),
    );
    const stored = await host.deps.posts.get(tenant.tenantId, tenant.workspaceId, postId);
    if (!stored?.firstComment) throw new Error('The post was not stored with its comment.');
    await host.deps.posts.update(
      {
        ...stored,
        status: 'published',
        publishedAt: iso(NOW),
        platformPostId: '1790000000000000000',
        warnings: [{ code: 'LINK_THUMBNAIL_DROPPED', message: 'Published without the card image.' }],
        firstComment: {
          ...stored.firstComment,
          status: 'failed',
          attempts: 1,
          error: {
            origin: 'platform',
            code: 'REPLY_NOT_ALLOWED',
            message: 'The network refused the reply.',
            platformRawCode: 'raw-403-body',
            retryable: false,
          },
        },
        version: stored.version + 1,
      },
      stored.version,
    );

    // Act
    const answer = await client.get(`${postsPage}/${postId}`);

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.html).toContain('<h2 id="options-heading">Options</h2>');
    expect(answer.html).toContain('<dt>replySettings</dt><dd>following</dd>');
    expect(answer.html).toContain('<h2 id="link-heading">Link card</h2>');
    expect(answer.html).toContain('href="https://example.com/launch"');
    expect(answer.html).toContain('<h2 id="first-comment-heading">First comment</h2>');
    expect(answer.html).toContain('<pre>More in the replies</pre>');
    expect(answer.html).toContain('<dd>failed: the post itself stays published</dd>');
    expect(answer.html).toContain('<code>REPLY_NOT_ALLOWED</code> The network refused the reply.');
    expect(answer.html).not.toContain('raw-403-body');
    expect(answer.html).toContain('<h2 id="warnings-heading">What to know</h2>');
    expect(answer.html).toContain('<code>LINK_THUMBNAIL_DROPPED</code> Published without the card image.');
  });

  it("shows a post's externalId (a calendar entry's) only where it has one", async () => {
    const tied = await create(
      tenant,
      tweet(tenant, { status: 'draft', content: 'from the calendar', externalId: 'december/launch<1>' }),
    );
    const page = await client.get(`${postsPage}/${tied}`);
    expect(page.html).toContain('<dt>External id</dt><dd><code>december/launch&lt;1&gt;</code></dd>');
    const plain = await client.get(`${postsPage}/${created.draftTweet}`);
    expect(plain.html).not.toContain('External id');
  });

  it('says so when the history search stopped at its bound', async () => {
    // Prepare: more events of other posts than the page searches, then one of this post.
    const crowded = await host.admin.bootstrap({ name: 'Crowded', planTier: 'enterprise' });
    const postId = await create(crowded, tweet(crowded, { status: 'draft' }));
    const at = clock.now();
    for (let i = 0; i < 501; i++) {
      await host.deps.webhooks.appendEvents([
        {
          id: newId('event', at + 1 + i),
          type: 'post.queued',
          createdAt: iso(at + 1 + i),
          tenantId: crowded.tenantId,
          workspaceId: crowded.workspaceId,
          data: { postId: newId('post', at), status: 'queued' },
        },
      ]);
    }
    clock.advance(600 + FEED_SETTLE_MS);
    const { client: owner } = await signedInAs(host, { role: 'owner', tenantId: crowded.tenantId });

    // Act
    const answer = await owner.get(`/workspaces/${crowded.workspaceId}/posts/${postId}`);

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.html).toContain(
      'Only the first 500 events of the workspace since this post was created were searched',
    );
  });

  it("answers 404 for another workspace's post, by its own path and by this workspace's", async () => {
    // Prepare
    const other = await host.admin.bootstrap({ name: 'Other posts' });
    const theirs = await create(other, tweet(other, { status: 'draft' }));

    // Act
    const byTheirPath = await client.get(`/workspaces/${other.workspaceId}/posts/${theirs}`);
    const byOurPath = await client.get(`${postsPage}/${theirs}`);
    const theirList = await client.get(`/workspaces/${other.workspaceId}/posts`);

    // Assess
    for (const answer of [byTheirPath, byOurPath, theirList]) {
      expect(answer.status).toBe(404);
      expect(answer.html).not.toContain(theirs);
    }
  });
});
