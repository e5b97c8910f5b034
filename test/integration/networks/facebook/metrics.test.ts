import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { graphError } from '../../../../infra/fake-networks/facebook/index.js';
import type { MetricsTarget, PostMetricsRequest } from '../../../../shared/ports/connector.js';
import { anAccount, aRequest, type FacebookWorld, PAGE, startWorld, storedMedia } from './facebook-world.js';

describe('Facebook metrics against the fake: engagement fields of posts and videos, the Page’s followers', () => {
  let world: FacebookWorld;
  beforeEach(async () => {
    world = await startWorld({ processingPolls: { video: 0, reel: 0 } });
  });
  afterEach(async () => {
    await world.stop();
  });

  const connector = () => world.network.connector;
  const target = (postId: string, platformPostId: string): MetricsTarget => ({
    postId,
    platformPostId,
    publishedAt: new Date().toISOString(),
  });
  const readPosts = (posts: MetricsTarget[], overrides: Partial<PostMetricsRequest> = {}) => {
    const read = connector().readPostMetrics;
    if (!read) throw new Error('Facebook should read post metrics');
    return read({
      account: anAccount({ scopes: ['pages_manage_posts', 'pages_read_engagement'] }),
      credentials: { accessToken: world.pageToken() },
      posts,
      signal: AbortSignal.timeout(5_000),
      ...overrides,
    });
  };

  it('reads reactions as likes, comments and shares of a feed post (0 shares when Meta leaves the field out), and a reel’s without shares', async () => {
    const text = await connector().publish(aRequest(world, 'text'));
    const reel = await connector().publish(aRequest(world, 'reel', [storedMedia(world, 'video')]));
    const other = await connector().publish(
      aRequest(world, 'text', [], { postOverrides: { content: 'Other' } }),
    );
    if (text.kind !== 'published' || reel.kind !== 'published' || other.kind !== 'published')
      throw new Error('not published');
    world.fake.control.setEngagement(text.platformPostId, { reactions: 12, comments: 3, shares: 2 });
    world.fake.control.setEngagement(reel.platformPostId, { reactions: 40, comments: 5 });

    const answer = await readPosts([
      target('pst_text', text.platformPostId),
      target('pst_reel', reel.platformPostId),
      target('pst_other', other.platformPostId),
    ]);

    expect(answer).toEqual({
      kind: 'metrics',
      byPost: {
        pst_text: { likes: 12, comments: 3, shares: 2 },
        pst_reel: { likes: 40, comments: 5 },
        pst_other: { likes: 0, comments: 0, shares: 0 },
      },
      notFound: [],
    });
  });

  it('a post Meta no longer has goes to notFound; the rest are read', async () => {
    const text = await connector().publish(aRequest(world, 'text'));
    if (text.kind !== 'published') throw new Error('not published');
    const answer = await readPosts([
      target('pst_gone', `${PAGE.pageId}_999`),
      target('pst_text', text.platformPostId),
    ]);
    expect(answer).toMatchObject({
      kind: 'metrics',
      notFound: ['pst_gone'],
      byPost: { pst_text: { likes: 0 } },
    });
  });

  it('a token without pages_read_engagement is missing_scopes; a refused token auth_failed; a throttle rate_limited', async () => {
    const text = await connector().publish(aRequest(world, 'text'));
    if (text.kind !== 'published') throw new Error('not published');
    const posts = [target('pst_text', text.platformPostId)];
    expect(await readPosts(posts, { account: anAccount({ scopes: ['pages_manage_posts'] }) })).toMatchObject({
      failure: 'missing_scopes',
      missingScopes: ['pages_read_engagement'],
    });
    const narrow = world.fake.control.issuePageToken(PAGE.pageId, { scopes: ['pages_manage_posts'] });
    expect(await readPosts(posts, { credentials: { accessToken: narrow } })).toMatchObject({
      failure: 'missing_scopes',
    });
    world.fake.control.inject('object', {
      kind: 'reply',
      reply: graphError(190, 'Session expired', { subcode: 463 }),
    });
    expect(await readPosts(posts)).toMatchObject({ kind: 'failed', failure: 'auth_failed' });
    world.fake.control.inject('object', {
      kind: 'reply',
      reply: graphError(32, 'Page request limit reached'),
    });
    expect(await readPosts(posts)).toMatchObject({ kind: 'failed', failure: 'rate_limited' });
  });

  it('reads the Page’s followers', async () => {
    await world.stop();
    world = await startWorld({
      users: [
        {
          userId: '10160000000000001',
          name: 'Admin',
          pages: [{ ...PAGE, followers: 1234 }],
        },
      ],
    });
    const read = connector().readAccountMetrics;
    if (!read) throw new Error('Facebook should read the Page’s metrics');
    expect(
      await read({
        account: anAccount(),
        credentials: { accessToken: world.pageToken() },
        signal: AbortSignal.timeout(5_000),
      }),
    ).toEqual({ kind: 'metrics', metrics: { followers: 1234 } });
  });
});
