import { afterEach, describe, expect, it } from 'vitest';
import { linkedInError } from '../../../../infra/fake-networks/linkedin/index.js';
import { linkedinDefinition } from '../../../../shared/networks/linkedin/definition.js';
import { secondsUntilUtcMidnight } from '../../../../shared/networks/linkedin/metrics-failures.js';
import {
  LINKEDIN_COMMUNITY_SCOPES,
  LINKEDIN_MEMBER_SCOPES,
} from '../../../../shared/networks/linkedin/oauth.js';
import type {
  AccountMetricsRequest,
  MetricsTarget,
  PostMetricsAnswer,
  PostMetricsRequest,
} from '../../../../shared/ports/connector.js';
import {
  aCommunityAccount,
  aPost,
  aRequest,
  communityToken,
  type LinkedInWorld,
  MEMBER,
  memberToken,
  PAGE,
  startWorld,
} from './linkedin-world.js';

/** LinkedIn's own words: the answer's message is ours and never carries them. */
const THEIR_WORDS = 'a sentence only LinkedIn would write';
const HOUR_MS = 60 * 60 * 1000;
const START = Date.parse('2026-05-10T09:00:00.000Z');

/** The fake's clock, moved by the tests: its numbers grow with it. */
let clock = START;
const fakeNow = () => clock;

async function publishAs(world: LinkedInWorld, token: string, postId: string): Promise<MetricsTarget> {
  const post = aPost({ postId, content: `Numbers for ${postId}` });
  const outcome = await world.network.connector.publish(
    aRequest(world, token, { post, account: aCommunityAccount() }),
  );
  if (outcome.kind !== 'published' || !('platformPostId' in outcome))
    throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
  return { postId, platformPostId: outcome.platformPostId, publishedAt: new Date(clock).toISOString() };
}

function readPosts(
  world: LinkedInWorld,
  token: string,
  posts: readonly MetricsTarget[],
  overrides: Partial<PostMetricsRequest> = {},
): Promise<PostMetricsAnswer> {
  const readPostMetrics = world.network.connector.readPostMetrics;
  if (!readPostMetrics) throw new Error('The LinkedIn connector reads no post metrics.');
  return readPostMetrics({
    account: aCommunityAccount({ scopes: [...LINKEDIN_COMMUNITY_SCOPES] }),
    credentials: { accessToken: token },
    posts,
    signal: AbortSignal.timeout(10_000),
    ...overrides,
  });
}

function readAccount(world: LinkedInWorld, token: string, overrides: Partial<AccountMetricsRequest> = {}) {
  const readAccountMetrics = world.network.connector.readAccountMetrics;
  if (!readAccountMetrics) throw new Error('The LinkedIn connector reads no account metrics.');
  return readAccountMetrics({
    account: aCommunityAccount({ scopes: [...LINKEDIN_COMMUNITY_SCOPES] }),
    credentials: { accessToken: token },
    signal: AbortSignal.timeout(10_000),
    ...overrides,
  });
}

function analyticsRequests(world: LinkedInWorld) {
  return world.fake.control.requests().filter((seen) => seen.endpoint === 'memberCreatorPostAnalytics');
}

describe('LinkedIn metrics against the fake', () => {
  let world: LinkedInWorld;
  afterEach(() => world.stop());

  async function start(options: Parameters<typeof startWorld>[0] = {}) {
    clock = START;
    world = await startWorld({ now: fakeNow, ...options });
    return communityToken(world);
  }

  it('reads a member post’s numbers, one post and one queryType a request in Rest.li form, mapped into our names, growing with time', async () => {
    const token = await start();
    const target = await publishAs(world, token, 'pst_1');
    clock += 6 * HOUR_MS;

    const first = await readPosts(world, token, [target]);
    expect(first).toEqual({
      kind: 'metrics',
      byPost: { pst_1: { impressions: 240, reach: 150, likes: 18, comments: 6, shares: 1, saves: 1 } },
      notFound: [],
    });
    const seen = analyticsRequests(world);
    expect(seen.map((request) => new URLSearchParams(request.query).get('queryType'))).toEqual([
      'IMPRESSION',
      'MEMBERS_REACHED',
      'REACTION',
      'COMMENT',
      'RESHARE',
      'POST_SAVE',
    ]);
    const id = target.platformPostId.split(':').at(-1);
    for (const request of seen) {
      expect(request.query).toContain(`entity=(share:urn%3Ali%3Ashare%3A${id})`);
      expect(request.query).toContain('aggregation=TOTAL');
      expect(request.linkedInVersion).toMatch(/^\d{6}$/);
      expect(request.restliProtocolVersion).toBe('2.0.0');
    }

    clock += 24 * HOUR_MS;
    const later = await readPosts(world, token, [target]);
    expect(later).toMatchObject({ kind: 'metrics', byPost: { pst_1: { impressions: 1200, reach: 750 } } });
  });

  it('splits posts beyond the batch size into requests of at most that many ids (the member finder takes one)', async () => {
    const token = await start();
    const targets = [
      await publishAs(world, token, 'pst_a'),
      await publishAs(world, token, 'pst_b'),
      await publishAs(world, token, 'pst_c'),
    ];
    clock += HOUR_MS;

    const answer = await readPosts(world, token, targets);
    expect(answer.kind === 'metrics' && Object.keys(answer.byPost).sort()).toEqual([
      'pst_a',
      'pst_b',
      'pst_c',
    ]);
    const limit = linkedinDefinition.metrics.batchSize;
    const seen = analyticsRequests(world);
    expect(seen).toHaveLength(targets.length * 6);
    for (const request of seen) {
      expect(request.query.match(/entity=/g)?.length).toBeLessThanOrEqual(limit);
    }
    const entities = new Set(seen.map((request) => new URLSearchParams(request.query).get('entity')));
    expect(entities.size).toBe(targets.length);
  });

  it('lists a post deleted at LinkedIn as not found and reads the others', async () => {
    const token = await start();
    const gone = await publishAs(world, token, 'pst_gone');
    const kept = await publishAs(world, token, 'pst_kept');
    world.fake.control.deletePost(gone.platformPostId);
    clock += 2 * HOUR_MS;

    const answer = await readPosts(world, token, [gone, kept]);
    expect(answer).toMatchObject({
      kind: 'metrics',
      notFound: ['pst_gone'],
      byPost: { pst_kept: { impressions: 80 } },
    });
    expect(answer.kind === 'metrics' && 'pst_gone' in answer.byPost).toBe(false);
  });

  it('answers missing_scopes without a request when the account was not granted r_member_postAnalytics (a member app’s account)', async () => {
    const token = await start();
    const answer = await readPosts(world, memberToken(world), [], {
      account: aCommunityAccount({ networkApp: 'LINKEDIN', scopes: [...LINKEDIN_MEMBER_SCOPES] }),
      posts: [await publishAs(world, token, 'pst_1')],
    });
    expect(answer).toMatchObject({
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: ['r_member_postAnalytics'],
    });
    expect(analyticsRequests(world)).toHaveLength(0);
  });

  it('answers missing_scopes when LinkedIn refuses the token for the permission (403 ACCESS_DENIED)', async () => {
    const token = await start();
    const target = await publishAs(world, token, 'pst_1');
    const withoutAnalytics = world.fake.control.issueToken(
      MEMBER.sub,
      LINKEDIN_COMMUNITY_SCOPES.filter((scope) => scope !== 'r_member_postAnalytics'),
      world.fake.appWith('COMMUNITY_MANAGEMENT_API')?.clientId,
    );
    const answer = await readPosts(world, withoutAnalytics, [target], { account: aCommunityAccount() });
    expect(answer).toMatchObject({
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: ['r_member_postAnalytics'],
    });
  });

  it('answers rate_limited when the member’s daily limit is reached, waiting until LinkedIn’s reset at midnight UTC', async () => {
    const token = await start({ metricsDailyLimit: 6 });
    const targets = [await publishAs(world, token, 'pst_1'), await publishAs(world, token, 'pst_2')];
    const before = Date.now();
    const answer = await readPosts(world, token, targets);
    expect(answer).toMatchObject({ kind: 'failed', failure: 'rate_limited' });
    const wait = answer.kind === 'failed' ? (answer.retryAfterSeconds ?? 0) : 0;
    expect(wait).toBeLessThanOrEqual(secondsUntilUtcMidnight(before));
    expect(wait).toBeGreaterThanOrEqual(secondsUntilUtcMidnight(Date.now()));
  });

  it('takes a Retry-After LinkedIn gives, and never passes LinkedIn’s words on', async () => {
    const token = await start();
    const target = await publishAs(world, token, 'pst_1');
    world.fake.control.failNext('memberCreatorPostAnalytics', {
      kind: 'reply',
      reply: { ...linkedInError(429, THEIR_WORDS), headers: { 'retry-after': '42' } },
    });
    const answer = await readPosts(world, token, [target]);
    expect(answer).toMatchObject({ kind: 'failed', failure: 'rate_limited', retryAfterSeconds: 42 });
    expect(JSON.stringify(answer)).not.toContain(THEIR_WORDS);
  });

  it('answers auth_failed when the token has expired', async () => {
    const token = await start();
    const target = await publishAs(world, token, 'pst_1');
    world.fake.control.expireAccessToken(token);
    expect(await readPosts(world, token, [target])).toMatchObject({ kind: 'failed', failure: 'auth_failed' });
  });

  it('answers unavailable when LinkedIn does not answer in time, or fails with a server error', async () => {
    const token = await start();
    const target = await publishAs(world, token, 'pst_1');
    world.fake.control.failNext('memberCreatorPostAnalytics', { kind: 'delayAfter', ms: 2_000 });
    const late = await readPosts(world, token, [target], { signal: AbortSignal.timeout(300) });
    expect(late).toMatchObject({ kind: 'failed', failure: 'unavailable' });

    world.fake.control.clearFailures();
    world.fake.control.failNext('memberCreatorPostAnalytics', {
      kind: 'reply',
      reply: linkedInError(500, THEIR_WORDS),
    });
    const failed = await readPosts(world, token, [target]);
    expect(failed).toMatchObject({ kind: 'failed', failure: 'unavailable' });
    expect(JSON.stringify(failed)).not.toContain(THEIR_WORDS);
  });

  it('reads the member’s follower count in one request, growing with time', async () => {
    const token = await start();
    expect(await readAccount(world, token)).toEqual({ kind: 'metrics', metrics: { followers: 100 } });
    clock += 5 * HOUR_MS;
    expect(await readAccount(world, token)).toEqual({ kind: 'metrics', metrics: { followers: 105 } });
    expect(
      world.fake.control.requests().filter((seen) => seen.endpoint === 'memberFollowersCount'),
    ).toHaveLength(2);
  });

  it('answers the follower count’s own outcomes: its missing scope, an expired token', async () => {
    const token = await start();
    const withoutProfile = world.fake.control.issueToken(
      MEMBER.sub,
      LINKEDIN_COMMUNITY_SCOPES.filter((scope) => scope !== 'r_member_profileAnalytics'),
      world.fake.appWith('COMMUNITY_MANAGEMENT_API')?.clientId,
    );
    expect(await readAccount(world, withoutProfile, { account: aCommunityAccount() })).toMatchObject({
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: ['r_member_profileAnalytics'],
    });
    world.fake.control.expireAccessToken(token);
    expect(await readAccount(world, token)).toMatchObject({ kind: 'failed', failure: 'auth_failed' });
  });
});

describe('LinkedIn Page posts’ metrics against the fake', () => {
  let world: LinkedInWorld;
  afterEach(() => world.stop());

  const asPage = { linkedin: { author: PAGE } };

  async function publishAsPage(token: string, postId: string): Promise<MetricsTarget> {
    const post = aPost({ postId, content: `Page numbers for ${postId}`, platformOptions: asPage });
    const outcome = await world.network.connector.publish(
      aRequest(world, token, { post, account: aCommunityAccount() }),
    );
    if (outcome.kind !== 'published' || !('platformPostId' in outcome))
      throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
    return {
      postId,
      platformPostId: outcome.platformPostId,
      publishedAt: new Date(clock).toISOString(),
      platformOptions: asPage,
    };
  }

  function pageRequests() {
    return world.fake.control
      .requests()
      .filter((seen) => seen.endpoint === 'organizationalEntityShareStatistics');
  }

  it('reads a Page’s posts through its share statistics, several a request in Rest.li lists, at most 20 a request', async () => {
    clock = START;
    world = await startWorld({ now: fakeNow });
    const token = communityToken(world);
    const targets: MetricsTarget[] = [];
    for (let index = 0; index < 23; index += 1) targets.push(await publishAsPage(token, `pst_p${index}`));
    clock += 4 * HOUR_MS;

    const answer = await readPosts(world, token, targets);
    expect(answer.kind === 'metrics' && Object.keys(answer.byPost)).toHaveLength(23);
    expect(answer).toMatchObject({
      kind: 'metrics',
      notFound: [],
      byPost: { pst_p0: { impressions: 160, reach: 100, likes: 12, comments: 4, shares: 1, clicks: 2 } },
    });
    const seen = pageRequests();
    expect(seen.map((request) => request.query.match(/urn%3Ali%3Ashare%3A/g)?.length)).toEqual([20, 3]);
    for (const request of seen) {
      expect(request.query).toMatch(/shares=List\(urn%3Ali%3Ashare%3A[0-9]+(,urn%3Ali%3Ashare%3A[0-9]+)*\)/);
      expect(new URLSearchParams(request.query).get('organizationalEntity')).toBe(PAGE);
    }
    expect(analyticsRequests(world)).toHaveLength(0);
  });

  it('lists a Page post deleted at LinkedIn as not found, and answers missing_scopes without rw_organization_admin', async () => {
    clock = START;
    world = await startWorld({ now: fakeNow });
    const token = communityToken(world);
    const gone = await publishAsPage(token, 'pst_gone');
    const kept = await publishAsPage(token, 'pst_kept');
    world.fake.control.deletePost(gone.platformPostId);

    expect(await readPosts(world, token, [gone, kept])).toMatchObject({
      kind: 'metrics',
      notFound: ['pst_gone'],
      byPost: { pst_kept: {} },
    });

    const withoutAdmin = world.fake.control.issueToken(
      MEMBER.sub,
      LINKEDIN_COMMUNITY_SCOPES.filter((scope) => scope !== 'rw_organization_admin'),
      world.fake.appWith('COMMUNITY_MANAGEMENT_API')?.clientId,
    );
    expect(await readPosts(world, withoutAdmin, [kept], { account: aCommunityAccount() })).toMatchObject({
      kind: 'failed',
      failure: 'missing_scopes',
      missingScopes: ['rw_organization_admin'],
    });
  });
});
