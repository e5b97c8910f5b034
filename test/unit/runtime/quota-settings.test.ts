import { describe, expect, it } from 'vitest';
import { TABLES } from '../../../shared/adapters/dynamodb/tables.js';
import { DAILY_QUOTAS, withQuotaOverrides } from '../../../shared/domain/account-quotas.js';
import { ConfigError, configToEnv, loadConfig } from '../../../shared/runtime/config.js';
import {
  dailyQuotaOverridesEnv,
  loadDailyQuotaOverrides,
  QUOTA_SETTING_NAMES,
} from '../../../shared/runtime/quota-settings.js';

const TABLE_ENV = Object.fromEntries(TABLES.map((table) => [table.envVar, table.name]));

describe('the YouTube quota setting', () => {
  it('is absent unless set, so the defaults of DAILY_QUOTAS apply (10,000 units, 1,600 an upload)', () => {
    expect(loadDailyQuotaOverrides({})).toBeUndefined();
    expect(DAILY_QUOTAS.youtube).toEqual({ limit: 10_000, unit: 'quota_units', costPerPost: 1600 });
  });

  it('reads the units a day and the cost of an upload, either alone keeping the other default', () => {
    expect(
      loadDailyQuotaOverrides({ YOUTUBE_DAILY_QUOTA_UNITS: '50000', YOUTUBE_UPLOAD_COST_UNITS: '100' }),
    ).toEqual({ youtube: { limit: 50_000, costPerPost: 100 } });
    expect(loadDailyQuotaOverrides({ YOUTUBE_DAILY_QUOTA_UNITS: '20000' })).toEqual({
      youtube: { limit: 20_000, costPerPost: 1600 },
    });
    expect(loadDailyQuotaOverrides({ YOUTUBE_UPLOAD_COST_UNITS: '1' })).toEqual({
      youtube: { limit: 10_000, costPerPost: 1 },
    });
  });

  it.each([
    [{ YOUTUBE_DAILY_QUOTA_UNITS: 'lots' }, 'YOUTUBE_DAILY_QUOTA_UNITS must be a positive whole number.'],
    [{ YOUTUBE_DAILY_QUOTA_UNITS: '0' }, 'YOUTUBE_DAILY_QUOTA_UNITS must be a positive whole number.'],
    [{ YOUTUBE_UPLOAD_COST_UNITS: '1.5' }, 'YOUTUBE_UPLOAD_COST_UNITS must be a positive whole number.'],
    [
      { YOUTUBE_DAILY_QUOTA_UNITS: '1000', YOUTUBE_UPLOAD_COST_UNITS: '1600' },
      'YOUTUBE_UPLOAD_COST_UNITS may not exceed YOUTUBE_DAILY_QUOTA_UNITS.',
    ],
  ])('fails the start on %j', (env, message) => {
    expect(() => loadDailyQuotaOverrides(env)).toThrow(ConfigError);
    expect(() => loadDailyQuotaOverrides(env)).toThrow(message);
  });

  it('changes only the YouTube ceiling', () => {
    const quotas = withQuotaOverrides({ youtube: { limit: 30_000, costPerPost: 1600 } });
    expect(quotas.youtube).toEqual({ limit: 30_000, unit: 'quota_units', costPerPost: 1600 });
    expect(quotas.twitter).toEqual(DAILY_QUOTAS.twitter);
  });

  it('travels with the service configuration and back to its environment', () => {
    const config = loadConfig({ ...TABLE_ENV, YOUTUBE_DAILY_QUOTA_UNITS: '25000' });
    expect(config.dailyQuotaOverrides).toEqual({ youtube: { limit: 25_000, costPerPost: 1600 } });
    expect(loadConfig(configToEnv(config)).dailyQuotaOverrides).toEqual(config.dailyQuotaOverrides);
    expect(loadConfig(TABLE_ENV)).not.toHaveProperty('dailyQuotaOverrides');
  });
});

describe('the networks whose quota an operator sets', () => {
  it('keep the names operators use: the environment variables and CDK context keys of docs/deploy.md', () => {
    expect(QUOTA_SETTING_NAMES).toEqual([
      'YOUTUBE_DAILY_QUOTA_UNITS',
      'YOUTUBE_UPLOAD_COST_UNITS',
      'FACEBOOK_DAILY_POSTS',
      'FACEBOOK_POST_COST',
    ]);
  });

  it('go back to the environment under the same names, both settings written', () => {
    expect(dailyQuotaOverridesEnv({ youtube: { limit: 20_000, costPerPost: 1600 } })).toEqual({
      YOUTUBE_DAILY_QUOTA_UNITS: '20000',
      YOUTUBE_UPLOAD_COST_UNITS: '1600',
    });
    expect(dailyQuotaOverridesEnv({})).toEqual({});
  });
});
