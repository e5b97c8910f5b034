import { afterEach, describe, expect, it, vi } from 'vitest';
import { makePowertoolsLogger } from '../../../shared/adapters/observability/powertools-logger.js';
import { makePowertoolsMetrics } from '../../../shared/adapters/observability/powertools-metrics.js';
import { redactSecrets } from '../../../shared/adapters/observability/redact.js';

/** What Powertools wrote to stdout while `run` ran, one parsed JSON object per line. */
function capture(run: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    write.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('redactSecrets', () => {
  it('replaces secret-named values at any depth and keeps everything else', () => {
    const error = new Error('boom');
    expect(
      redactSecrets({
        postId: 'pst_1',
        authorization: 'Bearer smcp_abc',
        account: { handle: '@a', accessToken: 't', nested: [{ webhookSecret: 'whsec_x', ok: 1 }] },
        error,
      }),
    ).toEqual({
      postId: 'pst_1',
      authorization: '[redacted]',
      account: { handle: '@a', accessToken: '[redacted]', nested: [{ webhookSecret: '[redacted]', ok: 1 }] },
      error,
    });
  });
});

describe('the Powertools logger adapter', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('writes one JSON line with the service, the level, the message and the fields; child fields stay on the child', () => {
    vi.stubEnv('POWERTOOLS_DEV', '');
    const logger = makePowertoolsLogger({ logLevel: 'INFO' });
    const lines = capture(() => {
      logger
        .with({ requestId: 'req_1', tenantId: 'ten_1' })
        .info('request', { status: 200, apiKey: 'smcp_x' });
      logger.info('plain');
      logger.debug('below the level');
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 'INFO',
      message: 'request',
      service: 'social-publishing-api',
      requestId: 'req_1',
      tenantId: 'ten_1',
      status: 200,
      apiKey: '[redacted]',
    });
    expect(lines[1]).not.toHaveProperty('requestId');
  });
});

describe('the Powertools metrics adapter', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('emits each point at once as embedded metric format with its own dimensions', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const metrics = makePowertoolsMetrics();
    const lines = capture(() => {
      metrics.count('PostsFailed', { platform: 'x', code: 'RATE_LIMITED' });
      metrics.milliseconds('ScheduledStartDelay', 420, { platform: 'linkedin' });
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ PostsFailed: 1, platform: 'x', code: 'RATE_LIMITED' });
    expect(lines[1]).toMatchObject({ ScheduledStartDelay: 420, platform: 'linkedin' });
    const emf = (lines[0] as { _aws: { CloudWatchMetrics: { Namespace: string }[] } })._aws;
    expect(emf.CloudWatchMetrics[0]?.Namespace).toBe('SocialPublishing');
    // The service-wide total beside the slice, so an alarm can watch the sum over every platform.
    expect((emf.CloudWatchMetrics[0] as unknown as { Dimensions: string[][] }).Dimensions).toEqual([
      ['service'],
      ['service', 'platform', 'code'],
    ]);
  });
});
