import * as z from 'zod';
import type { PostMetricValues } from '../../domain/metrics.js';
import type {
  AccountMetricsAnswer,
  AccountMetricsRequest,
  PostMetricsAnswer,
  PostMetricsRequest,
} from '../../ports/connector.js';
import { RequestNotSentError } from '../http/network-fetch.js';
import { inBatches } from '../in-batches.js';
import { BLUESKY_MESSAGES, errorName, retryAfterOf } from './errors.js';
import { accountMetricsOf, BLUESKY_METRICS_BATCH_SIZE, postMetricsOf } from './metrics-fields.js';
import { pdsCaller } from './pds-caller.js';
import { isPdsAddressRefusal } from './pds-fetch.js';
import { decodeSession } from './session.js';
import { callXrpc, type XrpcAnswer, type XrpcCaller } from './xrpc.js';

/**
 * The AppView, through the account's PDS (`atproto-proxy`): the PDS passes the call on with the
 * user's authority (research §7; `transition:generic` covers it).
 */
const APPVIEW_PROXY = { 'atproto-proxy': 'did:web:api.bsky.app#bsky_appview' };

type MetricsFailure = Extract<PostMetricsAnswer, { kind: 'failed' }>;

const postViews = z.object({ posts: z.array(z.object({ uri: z.string() }).loose()) });
const profileView = z.object({ did: z.string() }).loose();

function failureOf(answer: XrpcAnswer, nowMs: number): MetricsFailure {
  if (answer.status === 429) {
    const retryAfterSeconds = retryAfterOf(answer.headers, nowMs);
    return {
      kind: 'failed',
      failure: 'rate_limited',
      message: 'Bluesky rate limit reached.',
      ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
    };
  }
  if (answer.status === 401 || errorName(answer) === 'ExpiredToken') {
    return { kind: 'failed', failure: 'auth_failed', message: "Bluesky refused the account's access token." };
  }
  if (answer.status === 403) {
    return {
      kind: 'failed',
      failure: 'missing_scopes',
      message: 'Bluesky did not allow the read (a permission is missing).',
    };
  }
  return {
    kind: 'failed',
    failure: 'unavailable',
    message: `Bluesky answered the read with HTTP ${answer.status}.`,
  };
}

function failureOfError(error: unknown): MetricsFailure {
  if (isPdsAddressRefusal(error))
    return { kind: 'failed', failure: 'auth_failed', message: BLUESKY_MESSAGES.PDS_ADDRESS_REFUSED };
  const why = error instanceof RequestNotSentError ? 'could not be reached' : 'did not answer';
  return { kind: 'failed', failure: 'unavailable', message: `Bluesky ${why}.` };
}

const noSession = (): MetricsFailure => ({
  kind: 'failed',
  failure: 'auth_failed',
  message: 'The Bluesky account has no session to read with.',
});

async function callerOf(
  request: { credentials?: { accessToken: string }; signal: AbortSignal },
  fetchImpl: typeof fetch | undefined,
): Promise<{ caller: XrpcCaller; did: string } | undefined> {
  const session = request.credentials && decodeSession(request.credentials.accessToken);
  return session && { caller: await pdsCaller(session, fetchImpl, request.signal), did: session.did };
}

/**
 * How published posts did (docs/metrics.md): `app.bsky.feed.getPosts` with up to 25 AT-URIs a
 * request. A post the AppView does not return (deleted) is `notFound`; a refused or unanswered read
 * ends the read with that failure.
 */
export async function readBlueskyPostMetrics(
  fetchImpl: typeof fetch | undefined,
  now: () => number,
  request: PostMetricsRequest,
): Promise<PostMetricsAnswer> {
  const called = await callerOf(request, fetchImpl);
  if (!called) return noSession();
  const byPost: Record<string, PostMetricValues> = {};
  const notFound: string[] = [];
  for (const batch of inBatches(request.posts, BLUESKY_METRICS_BATCH_SIZE)) {
    let answer: XrpcAnswer;
    try {
      answer = await callXrpc(called.caller, {
        method: 'GET',
        nsid: 'app.bsky.feed.getPosts',
        query: { uris: [...new Set(batch.map((post) => post.platformPostId))] },
        headers: APPVIEW_PROXY,
      });
    } catch (error) {
      return failureOfError(error);
    }
    if (!answer.ok) return failureOf(answer, now());
    const parsed = postViews.safeParse(answer.body);
    if (!parsed.success)
      return { kind: 'failed', failure: 'unavailable', message: 'Bluesky answered the read unreadably.' };
    const views = new Map(parsed.data.posts.map((view) => [view.uri, view]));
    for (const post of batch) {
      const view = views.get(post.platformPostId);
      if (view) byPost[post.postId] = postMetricsOf(view);
      else notFound.push(post.postId);
    }
  }
  return { kind: 'metrics', byPost, notFound };
}

/** The account's followers, following and posts: `app.bsky.actor.getProfile` of its DID. */
export async function readBlueskyAccountMetrics(
  fetchImpl: typeof fetch | undefined,
  now: () => number,
  request: AccountMetricsRequest,
): Promise<AccountMetricsAnswer> {
  const called = await callerOf(request, fetchImpl);
  if (!called) return noSession();
  try {
    const answer = await callXrpc(called.caller, {
      method: 'GET',
      nsid: 'app.bsky.actor.getProfile',
      query: { actor: called.did },
      headers: APPVIEW_PROXY,
    });
    if (!answer.ok) return failureOf(answer, now());
    const parsed = profileView.safeParse(answer.body);
    if (!parsed.success)
      return { kind: 'failed', failure: 'unavailable', message: 'Bluesky answered the read unreadably.' };
    return { kind: 'metrics', metrics: accountMetricsOf(parsed.data) };
  } catch (error) {
    return failureOfError(error);
  }
}
