import { describe, expect, it } from 'vitest';
import type { PostMetricsState } from '../../../shared/domain/metrics.js';
import { answerPostMetrics, missingMetricsScopes } from '../../../shared/domain/metrics-answer.js';
import { aPost } from '../delivery/support.js';

const everythingFine = { networkGivesMetrics: true, workspaceCollects: true, missingScopes: [] };
const published = (metrics?: PostMetricsState) =>
  aPost({ status: 'published', publishedAt: '2030-01-01T00:00:00.000Z', ...(metrics && { metrics }) });

describe('answerPostMetrics', () => {
  it('a network without metrics, nothing read: metrics_unavailable network_gives_none, before any other cause', async () => {
    const answer = await answerPostMetrics(published(), async () => ({
      networkGivesMetrics: false,
      workspaceCollects: false,
      missingScopes: ['x'],
    }));
    expect(answer).toEqual({ refusal: { code: 'metrics_unavailable', reason: 'network_gives_none' } });
  });

  it('readings are answered without looking at the workspace or the account', async () => {
    let looked = false;
    const answer = await answerPostMetrics(
      published({ readings: [{ collectedAt: '2030-01-01T01:00:00.000Z', metrics: { likes: 2 } }] }),
      async () => {
        looked = true;
        return everythingFine;
      },
    );
    expect(looked).toBe(false);
    expect(answer).toMatchObject({ view: { metrics: { likes: 2 }, nextCollectionAt: null, problem: null } });
  });

  it("the network's own missing-scopes answer names the scopes before the account's stored ones", async () => {
    const answer = await answerPostMetrics(
      published({
        readings: [],
        problem: { failure: 'missing_scopes', at: '2030-01-01T01:00:00.000Z', missingScopes: ['insights'] },
      }),
      async () => ({ ...everythingFine, missingScopes: ['other'] }),
    );
    expect(answer).toEqual({ refusal: { code: 'metrics_missing_scopes', missingScopes: ['insights'] } });
  });

  it('a rate-limited first try is still "not collected yet", with the retry time', async () => {
    const answer = await answerPostMetrics(
      published({
        readings: [],
        collection: { checks: 0, nextCollectAt: '2030-01-01T01:05:00.000Z' },
        problem: { failure: 'rate_limited', at: '2030-01-01T01:00:00.000Z' },
      }),
      async () => everythingFine,
    );
    expect(answer).toEqual({
      refusal: { code: 'metrics_not_collected_yet', nextCollectionAt: '2030-01-01T01:05:00.000Z' },
    });
  });

  it('a failed post is not published', async () => {
    const answer = await answerPostMetrics(aPost({ status: 'failed' }), async () => everythingFine);
    expect(answer).toEqual({ refusal: { code: 'post_not_published', postStatus: 'failed' } });
  });
});

describe('missingMetricsScopes', () => {
  it('the needed scopes the account was not granted; none on a sandbox account', () => {
    expect(missingMetricsScopes({ sandbox: false, scopes: ['a', 'b'] }, ['b', 'c', 'd'])).toEqual(['c', 'd']);
    expect(missingMetricsScopes({ sandbox: false }, ['b'])).toEqual(['b']);
    expect(missingMetricsScopes({ sandbox: true }, ['b'])).toEqual([]);
  });
});
