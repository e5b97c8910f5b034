import { describe, expect, it } from 'vitest';
import { TABLES } from '../../../shared/adapters/dynamodb/tables.js';
import { DAILY_QUOTAS, withYouTubeQuota } from '../../../shared/domain/account-quotas.js';
import { ConfigError, configToEnv, loadConfig } from '../../../shared/runtime/config.js';
import { loadYouTubeQuota } from '../../../shared/runtime/youtube-quota.js';

const TABLE_ENV = Object.fromEntries(TABLES.map((table) => [table.envVar, table.name]));

describe('the YouTube quota setting', () => {
  it('is absent unless set, so the defaults of DAILY_QUOTAS apply (10,000 units, 1,600 an upload)', () => {
    expect(loadYouTubeQuota({})).toBeUndefined();
    expect(DAILY_QUOTAS.youtube).toEqual({ limit: 10_000, unit: 'quota_units', costPerPost: 1600 });
  });

  it('reads the units a day and the cost of an upload, either alone keeping the other default', () => {
    expect(
      loadYouTubeQuota({ YOUTUBE_DAILY_QUOTA_UNITS: '50000', YOUTUBE_UPLOAD_COST_UNITS: '100' }),
    ).toEqual({ dailyUnits: 50_000, uploadCostUnits: 100 });
    expect(loadYouTubeQuota({ YOUTUBE_DAILY_QUOTA_UNITS: '20000' })).toEqual({
      dailyUnits: 20_000,
      uploadCostUnits: 1600,
    });
    expect(loadYouTubeQuota({ YOUTUBE_UPLOAD_COST_UNITS: '1' })).toEqual({
      dailyUnits: 10_000,
      uploadCostUnits: 1,
    });
  });

  it.each([
    [{ YOUTUBE_DAILY_QUOTA_UNITS: 'lots' }],
    [{ YOUTUBE_DAILY_QUOTA_UNITS: '0' }],
    [{ YOUTUBE_UPLOAD_COST_UNITS: '1.5' }],
    [{ YOUTUBE_DAILY_QUOTA_UNITS: '1000', YOUTUBE_UPLOAD_COST_UNITS: '1600' }],
  ])('fails the start on %j', (env) => {
    expect(() => loadYouTubeQuota(env)).toThrow(ConfigError);
  });

  it('changes only the YouTube ceiling', () => {
    const quotas = withYouTubeQuota({ dailyUnits: 30_000, uploadCostUnits: 1600 });
    expect(quotas.youtube).toEqual({ limit: 30_000, unit: 'quota_units', costPerPost: 1600 });
    expect(quotas.twitter).toEqual(DAILY_QUOTAS.twitter);
  });

  it('travels with the service configuration and back to its environment', () => {
    const config = loadConfig({ ...TABLE_ENV, YOUTUBE_DAILY_QUOTA_UNITS: '25000' });
    expect(config.youtubeQuota).toEqual({ dailyUnits: 25_000, uploadCostUnits: 1600 });
    expect(loadConfig(configToEnv(config)).youtubeQuota).toEqual(config.youtubeQuota);
    expect(loadConfig(TABLE_ENV)).not.toHaveProperty('youtubeQuota');
  });
});
