import { cleanMetricValues, POST_METRIC_NAMES, type PostMetricValues } from '../../domain/metrics.js';
import {
  afterCollection,
  type CollectionOutcome,
  collectionDue,
  METRICS_BATCH_WINDOW_MS,
  METRICS_EARLY_READ_MS,
  nextCollection,
} from '../../domain/metrics-schedule.js';
import { contentItems, type Post } from '../../domain/posts.js';
import type { Account } from '../../domain/tenancy.js';
import type { NetworkDefinition } from '../../networks/definition.js';
import { definitionOf } from '../../networks/definitions.js';
import type { AccessCredentials, Connector, PostMetricsAnswer } from '../../ports/connector.js';
import type { Logger } from '../../ports/logger.js';
import { makeAuthorise } from '../delivery/authorise.js';
import { makeWriteIfUnchanged } from '../delivery/write-if-unchanged.js';
import { makeCollectsMetrics } from './collects-metrics.js';
import type { MetricsDeps } from './metrics-deps.js';
import { makeReserveReadUnits, secondsUntilNextQuotaDay } from './read-units.js';
import { makeTakeAccountReading } from './take-account-reading.js';

/** How long the network's read may take; past it the read is `unavailable`, tried at the next slot. */
export const METRICS_READ_TIMEOUT_MS = 30_000;

/** What one collection did for the post it was run for. */
export type CollectResult =
  /** Numbers stored (`post` as written). */
  | { kind: 'collected'; post: Post }
  /** The network gave none; the problem and the next collection (or none) stored. */
  | { kind: 'failed'; post: Post }
  /** Not read now (the project's quota keeps room for an upload); the next try stored. */
  | { kind: 'put_off'; post: Post }
  /** The post's network gives no metrics, or its workspace does not collect them: the schedule ended. */
  | { kind: 'not_collected'; post: Post }
  /** Nothing to do, or someone changed the post meanwhile (nothing written). */
  | { kind: 'dropped' };

type Answer = PostMetricsAnswer | { kind: 'put_off'; retryAfterSeconds: number };

/** The read's answer and, when the network answered, the account and credentials that read it. */
interface Read {
  answer: Answer;
  answeredFor?: { account: Account; credentials: AccessCredentials | undefined };
}

/**
 * Collect a published post's metrics (docs/metrics.md "How collection works"), due now or asked for
 * now (a refresh, `force`):
 * 1. the account, its connector's reader and the workspace's setting: without them, the schedule ends;
 * 2. the account's fresh access token (a refresh as before a post); refused, or the account
 *    disconnected: `auth_failed` (a reconnect restarts nothing by itself: a refresh does);
 * 3. the batch: the post, with the account's other published posts due within 15 minutes among its
 *    newest (one page of the store's published listing), up to the network's batch size;
 * 4. a network whose quota is the project's (YouTube): one read's unit counted, only while an
 *    upload's cost stays free; otherwise put off to the next quota day (or the next slot before it);
 * 5. one read of the batch's numbers, with a time-out; answered, the account's reading of the day
 *    too, when due (take-account-reading.ts);
 * 6. each post written on its own version: the reading (numbers cleaned), the next collection (or
 *    none), the problem set or cleared. A post changed meanwhile keeps its change; this one drops.
 * Never throws for a network's answer: a read that throws or times out is `unavailable`.
 */
export function makeCollectPostMetrics(deps: MetricsDeps) {
  const authorise = makeAuthorise(deps);
  const write = makeWriteIfUnchanged(deps);
  const collectsMetrics = makeCollectsMetrics(deps);
  const reserveReadUnits = makeReserveReadUnits(deps);
  const takeAccountReading = makeTakeAccountReading(deps);

  return async function collectPostMetrics(
    post: Post,
    log: Logger,
    options: { force?: boolean } = {},
  ): Promise<CollectResult> {
    const now = deps.clock.now();
    if (post.status !== 'published' || !post.publishedAt || !post.platformPostId) return { kind: 'dropped' };
    if (!options.force && !collectionDue(post.metrics, now, METRICS_EARLY_READ_MS))
      return { kind: 'dropped' };
    const account = await deps.tenancy.getAccount(post.tenantId, post.workspaceId, post.accountId);
    const connector = account && deps.connectorFor(account);
    if (!account || !connector?.readPostMetrics || !(await collectsMetrics(post, account))) {
      return endCollection(post, log);
    }
    const batch = [post, ...(await companions(post, now))];
    const { answer, answeredFor } = await read(connector, account, batch, log);
    let own: CollectResult = { kind: 'dropped' };
    for (const member of batch) {
      const result = await store(member, answer, now, member.postId !== post.postId);
      if (member.postId === post.postId) own = result;
    }
    // The token just worked and the network answered: the account's reading of the day, if due
    // (a network that refused the posts' read is not asked for more). After the posts are stored,
    // so their writes do not wait for it.
    if (answeredFor) await takeAccountReading(answeredFor.account, answeredFor.credentials, log);
    log.info('post metrics collected', {
      outcome: answer.kind === 'failed' ? answer.failure : answer.kind,
      posts: batch.length,
      ...(own.kind !== 'dropped' && { nextCollectAt: own.post.metrics?.collection?.nextCollectAt ?? null }),
    });
    return own;
  };

  /** The schedule ends without a problem: there is nothing to collect, not a failure to report. */
  async function endCollection(post: Post, log: Logger): Promise<CollectResult> {
    const { collection: _ended, ...state } = post.metrics ?? { readings: [] };
    const written = await write(post, { ...post, metrics: state });
    if (!written) return { kind: 'dropped' };
    log.info('post metrics not collected: no reader for its network, or its workspace does not collect it');
    return { kind: 'not_collected', post: written };
  }

  /** The account's other published posts due soon, among its newest, up to the network's batch size. */
  async function companions(post: Post, now: number): Promise<Post[]> {
    const definition: NetworkDefinition = definitionOf(post.platform);
    const room = (definition.metrics?.batchSize ?? 1) - 1;
    if (room <= 0) return [];
    const page = await deps.posts.list(post.tenantId, post.workspaceId, {
      status: 'published',
      accountId: post.accountId,
      limit: room + 1,
    });
    return page.items
      .filter(
        (other) =>
          other.postId !== post.postId &&
          other.platformPostId !== undefined &&
          other.publishedAt !== undefined &&
          collectionDue(other.metrics, now, METRICS_BATCH_WINDOW_MS),
      )
      .slice(0, room);
  }

  async function read(connector: Connector, account: Account, batch: Post[], log: Logger): Promise<Read> {
    if (account.status !== 'connected') {
      return { answer: { kind: 'failed', failure: 'auth_failed', message: 'The account is disconnected.' } };
    }
    const authorised = await authorise(account, AbortSignal.timeout(METRICS_READ_TIMEOUT_MS), log);
    if ('settle' in authorised) {
      // A refused or unreadable token needs a reconnect; a refresh that got no answer, another try.
      const failure = authorised.settle.kind === 'fail' ? 'auth_failed' : 'unavailable';
      return {
        answer: { kind: 'failed', failure, message: 'The account could not be authorised for the read.' },
      };
    }
    if (!(await reserveReadUnits(account.platform))) {
      return { answer: { kind: 'put_off', retryAfterSeconds: secondsUntilNextQuotaDay(deps.clock.now()) } };
    }
    const { credentials } = authorised.proceed;
    let answer: PostMetricsAnswer;
    try {
      answer = await (connector.readPostMetrics as NonNullable<Connector['readPostMetrics']>)({
        account: authorised.proceed.account,
        ...(credentials && { credentials }),
        posts: batch.map((member) => ({
          postId: member.postId,
          platformPostId: member.platformPostId as string,
          publishedAt: member.publishedAt as string,
          // What it was published as: LinkedIn reads a Page's post apart from a member's.
          ...(member.platformOptions && { platformOptions: member.platformOptions }),
          texts: contentItems(member).map((item) => item.text ?? ''),
        })),
        signal: AbortSignal.timeout(METRICS_READ_TIMEOUT_MS),
      });
    } catch (error) {
      log.warn('post metrics read failed without an answer', {
        error: error instanceof Error ? error.name : 'unknown',
      });
      return { answer: { kind: 'failed', failure: 'unavailable', message: 'The read gave no answer.' } };
    }
    if (answer.kind !== 'metrics') return { answer };
    return { answer, answeredFor: { account: authorised.proceed.account, credentials } };
  }

  /** Writes one post's share of the answer. */
  async function store(post: Post, answer: Answer, now: number, companion: boolean): Promise<CollectResult> {
    const publishedAt = post.publishedAt as string;
    const current = post.metrics?.collection;
    let outcome: CollectionOutcome;
    let result: Parameters<typeof afterCollection>[2];
    if (answer.kind === 'put_off') {
      outcome = { kind: 'failed', failure: 'rate_limited', retryAfterSeconds: answer.retryAfterSeconds };
      result = { kind: 'put_off' };
    } else if (answer.kind === 'failed') {
      outcome = {
        kind: 'failed',
        failure: answer.failure,
        ...(answer.retryAfterSeconds !== undefined && { retryAfterSeconds: answer.retryAfterSeconds }),
      };
      result = {
        kind: 'failed',
        failure: answer.failure,
        ...(answer.missingScopes && { missingScopes: answer.missingScopes }),
      };
    } else if (answer.notFound.includes(post.postId)) {
      outcome = { kind: 'failed', failure: 'not_found' };
      result = { kind: 'failed', failure: 'not_found' };
    } else {
      const values: PostMetricValues | undefined = answer.byPost[post.postId];
      if (values) {
        outcome = { kind: 'read' };
        const metrics = cleanMetricValues(values, POST_METRIC_NAMES);
        result = { kind: 'read', reading: { collectedAt: new Date(now).toISOString(), metrics } };
      } else {
        // The network answered for the batch but said nothing of this post: tried again later.
        outcome = { kind: 'failed', failure: 'unavailable' };
        result = { kind: 'failed', failure: 'unavailable' };
      }
    }
    // A post read a little before its time (a companion, or a schedule aiming a minute early) has had
    // that time's read: its next slot follows it. A refresh long before it leaves the slot in place.
    const dueAt = current ? Date.parse(current.nextCollectAt) : now;
    const readForItsSlot = outcome.kind === 'read' && (companion || dueAt - now <= METRICS_EARLY_READ_MS);
    const after = readForItsSlot ? Math.max(now, dueAt) : now;
    const collection = nextCollection(current, publishedAt, outcome, after);
    const metrics = afterCollection(post.metrics, collection, result, now);
    const written = await write(post, { ...post, metrics });
    if (!written) return { kind: 'dropped' };
    const kind = result.kind === 'read' ? 'collected' : result.kind === 'put_off' ? 'put_off' : 'failed';
    return { kind, post: written };
  }
}
