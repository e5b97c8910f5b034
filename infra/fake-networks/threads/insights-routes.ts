import { ownUser } from './container-routes.js';
import { replies } from './http.js';
import type { ApiContext, Handler } from './route.js';

const POST_METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'];

/** A fake post's numbers: views grow ten a minute of the fake's clock, likes a tenth of them; replies and quotes counted. */
export function fakePostInsights(context: ApiContext, id: string): Record<string, number> {
  const post = context.store.posts.find((item) => item.id === id);
  const minutes = post ? Math.max(0, Math.floor((context.settings.now() - post.timestamp) / 60_000)) : 0;
  const views = 10 * minutes + 1;
  return {
    views,
    likes: Math.floor(views / 10),
    replies: context.store.posts.filter((item) => item.repliedTo === id).length,
    reposts: 0,
    quotes: context.store.posts.filter((item) => item.quotedPostId === id).length,
    shares: 0,
  };
}

/**
 * GET /{media-id}/insights?metric=…: `metric` required, each a known post metric (100 otherwise);
 * the post must be the token's account's (100/33 once gone); values as Meta's `values: [{value}]`.
 */
export const mediaInsights: Handler<ApiContext> = (context) => {
  const id = context.params.id ?? '';
  const post = context.store.posts.find((item) => item.id === id);
  if (!post || post.owner !== context.user.userId) return replies.notFound(id);
  const metrics = (context.fields.get('metric') ?? '').split(',').filter(Boolean);
  if (metrics.length === 0) return replies.badParameter('Param metric is required.');
  const unknown = metrics.find((metric) => !POST_METRICS.includes(metric));
  if (unknown) return replies.badParameter(`Param metric contains an unsupported value: ${unknown}.`);
  const values = fakePostInsights(context, id);
  return {
    status: 200,
    json: {
      data: metrics.map((name) => ({
        name,
        period: 'lifetime',
        values: [{ value: values[name] ?? 0 }],
        title: name,
        description: `The ${name} of the post.`,
        id: `${id}/insights/${name}/lifetime`,
      })),
    },
  };
};

/** GET /{threads-user-id}/threads_insights?metric=followers_count: a total_value, as Meta answers it. */
export const accountInsights: Handler<ApiContext> = (context) => {
  const notOwn = ownUser(context);
  if (notOwn) return notOwn;
  const metrics = (context.fields.get('metric') ?? '').split(',').filter(Boolean);
  if (metrics.length === 0 || metrics.some((metric) => metric !== 'followers_count')) {
    return replies.badParameter('Param metric must name supported account metrics.');
  }
  return {
    status: 200,
    json: {
      data: [
        {
          name: 'followers_count',
          period: 'day',
          total_value: {
            value: 1000 + context.store.posts.filter((post) => post.owner === context.user.userId).length,
          },
          id: `${context.user.userId}/insights/followers_count/day`,
        },
      ],
    },
  };
};
