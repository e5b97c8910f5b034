import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { ContextError, readServiceContext } from '../../infra/context.js';

const read = (context: Record<string, unknown>) => readServiceContext(new App({ context }).node);

describe('readServiceContext', () => {
  it('defaults: stage dev, any CORS origin, no alarm email, no custom domain, the stage secret prefix, 500/s throttle, INFO logs', () => {
    expect(read({})).toEqual({
      stage: 'dev',
      corsOrigins: ['*'],
      networkSecretsPrefix: 'social-publishing/dev/networks/',
      networkEndpoints: {},
      apiThrottle: { rateLimit: 500, burstLimit: 1000 },
      logLevel: 'INFO',
    });
  });

  it("takes YouTube's quota as context, both numbers or one with the other's default", () => {
    expect(read({ YOUTUBE_DAILY_QUOTA_UNITS: '20000' }).dailyQuotaOverrides).toEqual({
      youtube: { limit: 20000, costPerPost: 1600 },
    });
    expect(read({}).dailyQuotaOverrides).toBeUndefined();
  });

  it('the default secret prefix follows the stage', () => {
    expect(read({ stage: 'prod' }).networkSecretsPrefix).toBe('social-publishing/prod/networks/');
  });

  it('reads every setting', () => {
    // Act
    const context = read({
      stage: 'prod',
      corsOrigins: ['https://app.example.com', 'http://localhost:3000'],
      alarmEmail: 'ops@example.com',
      domainName: 'API.example.com',
      certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0b1c-2d3e',
      networkSecretsPrefix: 'acme/prod/networks/',
      X_API_URL: 'https://x-fake.example.com/',
      LINKEDIN_OAUTH_URL: 'http://10.0.0.5:8080/oauth/v2',
      apiThrottleRateLimit: 2000,
      apiThrottleBurstLimit: 4000,
      logLevel: 'debug',
    });

    // Assess
    expect(context).toEqual({
      stage: 'prod',
      corsOrigins: ['https://app.example.com', 'http://localhost:3000'],
      alarmEmail: 'ops@example.com',
      customDomain: {
        domainName: 'api.example.com',
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0b1c-2d3e',
      },
      networkSecretsPrefix: 'acme/prod/networks/',
      networkEndpoints: {
        X_API_URL: 'https://x-fake.example.com',
        LINKEDIN_OAUTH_URL: 'http://10.0.0.5:8080/oauth/v2',
      },
      apiThrottle: { rateLimit: 2000, burstLimit: 4000 },
      logLevel: 'DEBUG',
    });
  });

  it('takes the throttle as digits too (as `-c apiThrottleRateLimit=…` gives it)', () => {
    expect(read({ apiThrottleRateLimit: '50', apiThrottleBurstLimit: ' 80 ' }).apiThrottle).toEqual({
      rateLimit: 50,
      burstLimit: 80,
    });
  });

  it('takes CORS origins as a comma-separated string too (as `-c corsOrigins=…` gives them)', () => {
    expect(read({ corsOrigins: 'https://a.example.com, https://b.example.com' }).corsOrigins).toEqual([
      'https://a.example.com',
      'https://b.example.com',
    ]);
  });

  it.each([
    [{ stage: 'Prod' }, /"stage"/],
    [{ stage: 'x'.repeat(33) }, /"stage"/],
    [{ corsOrigins: ['app.example.com'] }, /"corsOrigins"/],
    [{ corsOrigins: [42] }, /"corsOrigins"/],
    [{ corsOrigins: ' , ' }, /"corsOrigins"/],
    [{ alarmEmail: 'ops' }, /"alarmEmail"/],
    [{ domainName: 'api.example.com' }, /give both or neither/],
    [{ certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc' }, /give both or neither/],
    [
      { domainName: 'not a domain', certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc' },
      /"domainName"/,
    ],
    [
      { domainName: 'api.example.com', certificateArn: 'arn:aws:iam::123456789012:role/x' },
      /"certificateArn"/,
    ],
    [{ networkSecretsPrefix: 'bad prefix/' }, /"networkSecretsPrefix"/],
    [{ apiThrottleRateLimit: 0 }, /"apiThrottleRateLimit"/],
    [{ apiThrottleRateLimit: '1e3' }, /"apiThrottleRateLimit"/],
    [{ apiThrottleBurstLimit: 2.5 }, /"apiThrottleBurstLimit"/],
    [{ apiThrottleBurstLimit: '-5' }, /"apiThrottleBurstLimit"/],
    [{ logLevel: 'verbose' }, /"logLevel"/],
    [{ X_API_URL: 'api.x.com' }, /"X_API_URL"/],
    [{ GOOGLE_TOKEN_URL: 'ftp://oauth2.googleapis.com/token' }, /"GOOGLE_TOKEN_URL"/],
    [{ YOUTUBE_DAILY_QUOTA_UNITS: 'lots' }, /YOUTUBE_DAILY_QUOTA_UNITS/],
    [{ YOUTUBE_DAILY_QUOTA_UNITS: '1000', YOUTUBE_UPLOAD_COST_UNITS: '1600' }, /YOUTUBE_UPLOAD_COST_UNITS/],
  ])('refuses %j', (context, message) => {
    expect(() => read(context)).toThrow(ContextError);
    expect(() => read(context)).toThrow(message);
  });
});
