/**
 * The metrics an operator watches, by name. Each is emitted with the dimensions listed, so a
 * dashboard or an alarm can slice by them:
 * - PostsCreated (platform), PostsPublished (platform), PostsFailed (platform, code): counts;
 * - PostsAwaitingCreator (platform): posts delivered as drafts to the creator's inbox (TikTok);
 * - FirstComments (platform, outcome: published, retry, pending, failed, uncertain): each
 *   settled call of a post's first comment (docs/first-comment.md);
 * - ScheduledStartDelay (platform): milliseconds from a scheduled post's time to its network call;
 * - RateLimitedRequests (family): requests answered 429;
 * - AuthenticationFailures: requests answered 401;
 * - WebhookDeliveries (outcome: succeeded, retrying, failed): webhook delivery attempts, by how
 *   each ended (`retrying`: it failed and another is queued; `failed`: it was the last);
 * - WebhookDeliveryLatency: milliseconds from an event's state change to its receiver's 2xx;
 * - TokenRefreshes (platform, outcome: renewed, refused, unavailable): refreshes of an account's
 *   tokens at a network, at delivery or by the daily sweep (`refused` disconnected the account).
 */
export type MetricName =
  | 'PostsCreated'
  | 'PostsPublished'
  | 'PostsAwaitingCreator'
  | 'FirstComments'
  | 'PostsFailed'
  | 'ScheduledStartDelay'
  | 'RateLimitedRequests'
  | 'AuthenticationFailures'
  | 'WebhookDeliveries'
  | 'WebhookDeliveryLatency'
  | 'TokenRefreshes';

export type MetricDimensions = Record<string, string>;

export interface Metrics {
  count(name: MetricName, dimensions?: MetricDimensions, value?: number): void;
  milliseconds(name: MetricName, value: number, dimensions?: MetricDimensions): void;
}

export const noMetrics: Metrics = {
  count: () => undefined,
  milliseconds: () => undefined,
};
