import { replies } from './http.js';
import { growth, isQueryType, throttled } from './metrics-growth.js';
import { type ApiContext, type Handler, hasScope } from './route.js';

const HOUR_MS = 60 * 60 * 1000;
const MAX_LONG = 2n ** 63n - 1n;

/**
 * `entity` as Rest.li 2.0 writes it in a query string: `(share:urn%3Ali%3Ashare%3A{id})` or
 * `(ugc:urn%3Ali%3AugcPost%3A{id})`, parentheses and the union's colon bare, the URN's colons
 * encoded, the id a 64-bit number. Read from the raw query: a decoded one cannot tell them apart.
 */
function entityOf(rawQuery: string): { urn: string; member: 'share' | 'ugc' } | undefined {
  const raw = rawQuery
    .replace(/^\?/, '')
    .split('&')
    .find((pair) => pair.startsWith('entity='))
    ?.slice('entity='.length);
  const match = /^\((share|ugc):urn%3Ali%3A(share|ugcPost)%3A([0-9]{1,19})\)$/i.exec(raw ?? '');
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  const member = match[1] === 'share' ? 'share' : 'ugc';
  if ((member === 'share') !== (match[2] === 'share') || BigInt(match[3]) > MAX_LONG) return undefined;
  return { urn: `urn:li:${match[2]}:${match[3]}`, member };
}

/**
 * GET /rest/memberCreatorPostAnalytics?q=entity&entity=(share:…)&queryType=…&aggregation=TOTAL
 * (Member Post Statistics): `r_member_postAnalytics`, one post of the token's own member and one
 * queryType a request, TOTAL only in the fake; a post deleted or unknown answers 404, another
 * author's 403.
 */
export const memberPostAnalytics: Handler<ApiContext> = (context) => {
  const query = context.url.searchParams;
  if (query.get('q') !== 'entity') return replies.badRequest('Unsupported finder.');
  if (!hasScope(context.token, 'r_member_postAnalytics'))
    return replies.accessDenied('memberCreatorPostAnalytics.FINDER-entity.20260501');
  const limit = throttled(context, 'memberCreatorPostAnalytics');
  if (limit) return limit;
  const entity = entityOf(context.url.search);
  if (!entity)
    return replies.badRequest(
      'Invalid value for param: entity (a Rest.li share or ugc union of a post URN).',
    );
  const queryType = query.get('queryType') ?? '';
  if (!isQueryType(queryType)) return replies.badRequest(`Invalid value for param: queryType ${queryType}.`);
  if (query.get('aggregation') !== 'TOTAL')
    return replies.badRequest('The fake answers aggregation=TOTAL only.');
  const post = context.store.posts.find((candidate) => candidate.id === entity.urn);
  if (!post || post.deletedAt !== undefined) return replies.notFound(`Entity ${entity.urn} not found.`);
  if (post.author !== context.memberUrn)
    return replies.accessDenied('memberCreatorPostAnalytics.FINDER-entity.20260501');
  return {
    status: 200,
    json: {
      paging: { start: 0, count: 10, links: [] },
      elements: [
        {
          count: growth(post, queryType, context.settings.now()),
          metricType: {
            'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1': queryType,
          },
          targetEntity: { [entity.member]: entity.urn },
        },
      ],
    },
  };
};

/**
 * GET /rest/memberFollowersCount?q=me (Member Follower Statistics): `r_member_profileAnalytics`,
 * the member's lifetime count, 100 at the fake's start and one more each hour unless a test set it.
 */
export const memberFollowersCount: Handler<ApiContext> = (context) => {
  if (context.url.searchParams.get('q') !== 'me') return replies.badRequest('Unsupported finder.');
  if (!hasScope(context.token, 'r_member_profileAnalytics'))
    return replies.accessDenied('memberFollowersCount.FINDER-me.20260501');
  const limit = throttled(context, 'memberFollowersCount');
  if (limit) return limit;
  const grown = 100 + Math.floor(Math.max(0, context.settings.now() - context.store.startedAt) / HOUR_MS);
  return {
    status: 200,
    json: {
      paging: { start: 0, count: 10, links: [] },
      elements: [{ memberFollowersCount: context.store.followers.get(context.member.sub) ?? grown }],
    },
  };
};
