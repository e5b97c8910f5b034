import { linkedInError, replies } from './http.js';
import { shareStatistics, throttled } from './metrics-growth.js';
import { type ApiContext, type Handler, hasScope } from './route.js';

const MAX_LONG = 2n ** 63n - 1n;

/**
 * The raw `shares=List(…)` or `ugcPosts=List(…)` of a query string, each URN encoded inside the
 * bare `List(`, commas and `)` (Rest.li 2.0); undefined when absent, 'invalid' when malformed.
 */
function listOf(rawQuery: string, name: 'shares' | 'ugcPosts'): string[] | 'invalid' | undefined {
  const raw = rawQuery
    .replace(/^\?/, '')
    .split('&')
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1);
  if (raw === undefined) return undefined;
  const inner = /^List\((.*)\)$/.exec(raw)?.[1];
  if (!inner) return 'invalid';
  const type = name === 'shares' ? 'share' : 'ugcPost';
  const urns: string[] = [];
  for (const item of inner.split(',')) {
    const id = new RegExp(`^urn%3Ali%3A${type}%3A([0-9]{1,19})$`, 'i').exec(item)?.[1];
    if (!id || BigInt(id) > MAX_LONG) return 'invalid';
    urns.push(`urn:li:${type}:${id}`);
  }
  return urns;
}

/**
 * GET /rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=…
 * &shares=List(…)&ugcPosts=List(…) (Organization Share Statistics), lifetime only in the fake (no
 * timeIntervals): `rw_organization_admin` and the member's ADMINISTRATOR role on the Page (403
 * otherwise), at most `pagePostsPerRequest` posts (LinkedIn documents none; the fake holds the
 * connector to its own), each post the Page's (403 naming the field, as LinkedIn answers); a post
 * deleted or unknown is left out of the elements.
 */
export const organizationShareStatistics: Handler<ApiContext> = (context) => {
  const query = context.url.searchParams;
  if (query.get('q') !== 'organizationalEntity') return replies.badRequest('Unsupported finder.');
  const organization = query.get('organizationalEntity') ?? '';
  if (
    !hasScope(context.token, 'rw_organization_admin') ||
    !context.store.rolesOn(context.member.sub, organization).includes('ADMINISTRATOR')
  )
    return replies.accessDenied('organizationalEntityShareStatistics.FINDER-organizationalEntity.20260501');
  const limit = throttled(context, 'organizationalEntityShareStatistics');
  if (limit) return limit;
  if (query.has('timeIntervals')) return replies.badRequest('The fake answers lifetime statistics only.');
  const shares = listOf(context.url.search, 'shares');
  const ugcPosts = listOf(context.url.search, 'ugcPosts');
  if (shares === 'invalid' || ugcPosts === 'invalid')
    return replies.badRequest('Invalid value for param: shares or ugcPosts (a Rest.li List of post URNs).');
  const asked = [...(shares ?? []), ...(ugcPosts ?? [])];
  if (asked.length === 0) return replies.badRequest('The fake answers statistics of named posts only.');
  if (asked.length > context.settings.pagePostsPerRequest)
    return replies.badRequest(`At most ${context.settings.pagePostsPerRequest} posts a request.`);
  const elements = [];
  for (const [index, urn] of asked.entries()) {
    const post = context.store.posts.find((candidate) => candidate.id === urn);
    if (!post || post.deletedAt !== undefined) continue;
    if (post.author !== organization) {
      const field = urn.startsWith('urn:li:share:') ? 'shares' : 'ugcPosts';
      return linkedInError(
        403,
        `Unpermitted fields present in PARAMETER: Data Processing Exception while processing fields [/${field}[${index}]]`,
        { serviceErrorCode: 100, code: 'ACCESS_DENIED' },
      );
    }
    elements.push({
      organizationalEntity: organization,
      ...(urn.startsWith('urn:li:share:') ? { share: urn } : { ugcPost: urn }),
      totalShareStatistics: shareStatistics(post, context.settings.now()),
    });
  }
  return { status: 200, json: { paging: { start: 0, count: 10, links: [] }, elements } };
};
