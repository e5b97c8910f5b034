import { problems, type Reply } from './http.js';
import { tweetNonPublicMetrics, tweetPublicMetrics } from './metrics-growth.js';
import type { ApiContext } from './route.js';
import type { FakeTweet } from './store.js';
import { TWEET_FIELDS } from './users-routes.js';

/** X's ids are signed 64-bit integers: 19 digits (the OpenAPI pattern) and no more than this. */
const MAX_ID = 9_223_372_036_854_775_807n;
const THIRTY_DAYS_MS = 30 * 24 * 60 * 60 * 1000;
/** The fields X gives only to the author's own token, for Posts of the last 30 days (docs.x.com metrics). */
const PRIVATE_FIELDS = ['non_public_metrics', 'organic_metrics'] as const;

/**
 * GET /2/tweets?ids=…: after the token, its scopes (`tweet.read`, `users.read`), the rate limit and
 * X's OpenAPI document (1 to 100 ids of 1–19 digits) were checked (index.ts). Each id X has is in
 * `data`, in the order asked; each it has not is in `errors` as a `resource-not-found` problem,
 * the answer staying a 200 (X's GetPostsByIdsResponse), as it does for a deleted Post.
 */
export function lookupTweets(context: ApiContext): Reply {
  const query = context.url.searchParams;
  const ids = (query.get('ids') ?? '').split(',');
  const beyond = ids.find((id) => /^[0-9]+$/.test(id) && BigInt(id) > MAX_ID);
  if (beyond !== undefined) {
    return problems.invalid(`The \`ids\` query parameter value [${beyond}] is not a valid Post id.`, {
      ids: [beyond],
    });
  }
  const fields = new Set((query.get('tweet.fields') ?? '').split(',').filter(Boolean));
  const unknownField = [...fields].find((field) => !TWEET_FIELDS.has(field));
  if (unknownField) {
    return problems.invalid(
      `The \`tweet.fields\` query parameter value [${unknownField}] is not one of the allowed values.`,
      { 'tweet.fields': [unknownField] },
    );
  }
  const now = context.store.now();
  const data: Record<string, unknown>[] = [];
  const errors: Record<string, unknown>[] = [];
  for (const id of ids) {
    const tweet = context.store.tweets.find((candidate) => candidate.id === id);
    if (!tweet) {
      errors.push(notFound(id));
      continue;
    }
    const privateAsked = PRIVATE_FIELDS.find((field) => fields.has(field));
    if (privateAsked && (tweet.authorId !== context.user.id || now - tweet.createdAt > THIRTY_DAYS_MS)) {
      errors.push(notAuthorizedForField(id, privateAsked));
      continue;
    }
    data.push(view(tweet, fields, now));
  }
  return {
    status: 200,
    json: { ...(data.length > 0 && { data }), ...(errors.length > 0 && { errors }) },
  };
}

function view(tweet: FakeTweet, fields: Set<string>, now: number): Record<string, unknown> {
  const nonPublic = tweetNonPublicMetrics(tweet, now);
  return {
    id: tweet.id,
    text: tweet.renderedText,
    edit_history_tweet_ids: [tweet.id],
    ...(fields.has('created_at') && { created_at: new Date(tweet.createdAt).toISOString() }),
    ...(fields.has('author_id') && { author_id: tweet.authorId }),
    ...(fields.has('public_metrics') && { public_metrics: tweetPublicMetrics(tweet, now) }),
    ...(fields.has('non_public_metrics') && { non_public_metrics: nonPublic }),
    ...(fields.has('organic_metrics') && {
      organic_metrics: { ...tweetPublicMetrics(tweet, now), ...nonPublic },
    }),
  };
}

/** X's ResourceNotFoundProblem for an id it does not have (deleted, or never was). */
function notFound(id: string): Record<string, unknown> {
  return {
    value: id,
    detail: `Could not find tweet with ids: [${id}].`,
    title: 'Not Found Error',
    resource_type: 'tweet',
    parameter: 'ids',
    resource_id: id,
    type: 'https://api.x.com/2/problems/resource-not-found',
  };
}

/** X's NotAuthorizedForFieldProblem: a private field of someone else's Post, or of one older than 30 days. */
function notAuthorizedForField(id: string, field: string): Record<string, unknown> {
  return {
    value: id,
    detail: `Sorry, you are not authorized to access '${field}' on the Tweet with ids: [${id}].`,
    title: 'Field Authorization Error',
    resource_type: 'tweet',
    field,
    parameter: 'ids',
    resource_id: id,
    type: 'https://api.x.com/2/problems/not-authorized-for-field',
  };
}
