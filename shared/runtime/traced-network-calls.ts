import { inSubsegment } from '../adapters/observability/tracer.js';
import type { Post } from '../domain/posts.js';
import type { Account } from '../domain/tenancy.js';
import { traceIdOf } from '../domain/trace-header.js';
import type { Connector } from '../ports/connector.js';
import type { MediaFetcher } from '../ports/media-fetcher.js';
import type { WebhookSender } from '../ports/webhook-sender.js';

/**
 * The delivery side's calls out of AWS, each a subsegment of its own where tracing is registered
 * (shared/runtime/with-tracing.ts; elsewhere they are the calls themselves): a connector's call
 * (named `<platform>.<method>`, the `fetch`es it makes nested under it), a webhook POST, a media
 * fetch. A post's call is annotated with the post and the trace id of the API request that asked
 * for it (`request_trace_id`), so X-Ray finds the network call from the request's trace id.
 */

/** X-Ray annotation keys are letters, digits and underscores. */
function postAnnotations(post: Post | undefined): Record<string, string> {
  const requestTraceId = traceIdOf(post?.trace);
  return {
    ...(post && { post_id: post.postId }),
    ...(requestTraceId && { request_trace_id: requestTraceId }),
  };
}

function tracedConnector(connector: Connector, platform: string): Connector {
  const around = <R>(method: string, post: Post | undefined, call: () => Promise<R>) =>
    inSubsegment(`${platform}.${method}`, { network: platform, ...postAnnotations(post) }, call);
  const { readPostMetrics, readAccountMetrics, findPublished, publishComment, findComment } = connector;
  return {
    publish: (request) => around('publish', request.post, () => connector.publish(request)),
    ...(readPostMetrics && {
      readPostMetrics: (request) =>
        around('readPostMetrics', undefined, () => readPostMetrics.call(connector, request)),
    }),
    ...(readAccountMetrics && {
      readAccountMetrics: (request) =>
        around('readAccountMetrics', undefined, () => readAccountMetrics.call(connector, request)),
    }),
    ...(findPublished && {
      findPublished: (request) =>
        around('findPublished', request.post, () => findPublished.call(connector, request)),
    }),
    ...(publishComment && {
      publishComment: (request) =>
        around('publishComment', request.post, () => publishComment.call(connector, request)),
    }),
    ...(findComment && {
      findComment: (request) =>
        around('findComment', request.post, () => findComment.call(connector, request)),
    }),
  };
}

/** Each account's connector, its calls traced; one wrapper per connector, made on first use. */
export function tracedConnectorFor(
  connectorFor: (account: Account) => Connector | undefined,
): (account: Account) => Connector | undefined {
  const wrapped = new WeakMap<Connector, Connector>();
  return (account) => {
    const connector = connectorFor(account);
    if (!connector) return undefined;
    let traced = wrapped.get(connector);
    if (!traced) {
      traced = tracedConnector(connector, account.sandbox ? 'sandbox' : account.platform);
      wrapped.set(connector, traced);
    }
    return traced;
  };
}

export function tracedWebhookSender(send: WebhookSender): WebhookSender {
  return (post) => inSubsegment('webhook.post', {}, () => send(post));
}

export function tracedMediaFetcher(fetchMedia: MediaFetcher): MediaFetcher {
  return (url, expected) => inSubsegment('media.fetch', {}, () => fetchMedia(url, expected));
}
