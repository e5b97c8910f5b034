import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTikTokFake, type TikTokFake } from '../../infra/fake-networks/tiktok/index.js';
import {
  TIKTOK_METRICS_SCOPES,
  TIKTOK_USER_STATS_SCOPE,
} from '../../shared/networks/tiktok/metrics-fields.js';
import type { AppCredentials, AppCredentialsSource } from '../../shared/ports/app-credentials.js';
import { loadNetworkEndpoints } from '../../shared/runtime/network-config.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { requestConnect } from '../e2e/support/connect.js';
import { consentAt } from '../e2e/support/consent.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

const BACK = 'https://app.example.com/connected';
/**
 * What TikTok approves for an app with Login Kit and the Content Posting API (its upload to the
 * inbox, video.upload, and Direct Post, video.publish), no more.
 */
const WITHOUT_METRICS = ['user.info.basic', 'video.publish', 'video.upload'];

/**
 * The operator's per-app switch (AppCredentials.askMetricsScopes) through TikTok's fake, whose
 * consent page refuses a scope the app is not approved for (invalid_scope) and grants exactly what
 * was asked: with the switch off the connect asks no metrics scope, so an app without them connects,
 * and the account shows them missing and its metrics answer 409 metrics_missing_scopes.
 */
describe('connecting TikTok with askMetricsScopes false or true', () => {
  /** The TikTok app's credentials, with the operator's switch as the test sets it. */
  let tiktokApp: AppCredentials | undefined;
  const appCredentials: AppCredentialsSource = {
    async credentialsFor(app) {
      return app === 'TIKTOK' ? tiktokApp : undefined;
    },
  };
  const hosts: { host: TestHost; fake: TikTokFake; tenant: BootstrapResult }[] = [];

  /** A host whose TikTok is a fake approving `appScopes` for the app (every scope it knows by default). */
  async function start(appScopes?: string[]) {
    const fake = await startTikTokFake(appScopes ? { appScopes } : {});
    const env = { TIKTOK_API_URL: fake.apiUrl, TIKTOK_AUTHORIZE_URL: fake.authorizeUrl };
    const host = await startTestHost({ networkEndpoints: loadNetworkEndpoints(env), appCredentials });
    const tenant = await host.admin.bootstrap({ name: 'Metrics scopes' });
    await host.admin.setRedirectUris({ tenantId: tenant.tenantId, uris: [BACK] });
    const started = { host, fake, tenant };
    hosts.push(started);
    return started;
  }
  const switchTo = (fake: TikTokFake, askMetricsScopes: boolean) => {
    tiktokApp = {
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      ...(!askMetricsScopes && { askMetricsScopes: false }),
    };
  };

  /** The consent page address the connect answers, and the scopes it asks for. */
  async function connectStart(host: TestHost, tenant: BootstrapResult) {
    const response = await requestConnect(host, tenant, 'tiktok', BACK);
    expect(response.status).toBe(200);
    const { authorizeUrl } = (await response.json()) as { authorizeUrl: string };
    const asked = (new URL(authorizeUrl).searchParams.get('scope') ?? '').split(',');
    return { authorizeUrl, asked };
  }

  /** Consent, our callback, back at the caller: the account id. */
  async function consentAndReturn(host: TestHost, authorizeUrl: string): Promise<string> {
    const callback = await consentAt(authorizeUrl);
    expect(callback.startsWith(`${host.baseUrl}/v1/oauth/tiktok/callback?`)).toBe(true);
    const back = await fetch(callback, { redirect: 'manual' });
    expect(back.status).toBe(302);
    const accountId = new URL(String(back.headers.get('location'))).searchParams.get('accountId');
    expect(accountId).toMatch(/^acc_/);
    return String(accountId);
  }

  const read = (started: { host: TestHost; tenant: BootstrapResult }, accountId: string, path = '') =>
    started.host.call(`/v1/workspaces/${started.tenant.workspaceId}/accounts/${accountId}${path}`, {
      apiKey: started.tenant.apiKey,
    });

  afterAll(async () => {
    for (const { host, fake } of hosts) {
      await host.stop();
      await fake.stop();
    }
  });

  describe('an app TikTok has not approved for the metrics scopes', () => {
    let started: Awaited<ReturnType<typeof start>>;
    beforeAll(async () => {
      started = await start(WITHOUT_METRICS);
    });

    it('switch on (the default): the connect asks them and TikTok refuses the consent with invalid_scope', async () => {
      switchTo(started.fake, true);

      const { authorizeUrl, asked } = await connectStart(started.host, started.tenant);
      const consentPage = await fetch(authorizeUrl, { redirect: 'manual' });

      expect(asked).toEqual(expect.arrayContaining([...TIKTOK_METRICS_SCOPES]));
      expect(consentPage.status).toBe(302);
      expect(new URL(String(consentPage.headers.get('location'))).searchParams.get('error')).toBe(
        'invalid_scope',
      );
    });

    it('switch off: the connect asks no metrics scope, the account connects, shows them missing, and its metrics answer 409 metrics_missing_scopes naming what the account’s own numbers need', async () => {
      switchTo(started.fake, false);

      const { authorizeUrl, asked } = await connectStart(started.host, started.tenant);
      const accountId = await consentAndReturn(started.host, authorizeUrl);
      const account = (await (await read(started, accountId)).json()) as Record<string, unknown>;
      const metrics = await read(started, accountId, '/metrics');

      expect(asked).toEqual(WITHOUT_METRICS);
      expect(account).toMatchObject({ platform: 'tiktok', status: 'connected', sandbox: false });
      expect(account.scopes).toEqual(WITHOUT_METRICS);
      expect(account.missingMetricsScopes).toEqual([...TIKTOK_METRICS_SCOPES]);
      expect(metrics.status).toBe(409);
      // The account's own numbers need user.info.stats alone (accountScopes); the account lists both.
      expect(await metrics.json()).toMatchObject({
        error: 'metrics_missing_scopes',
        missingScopes: [TIKTOK_USER_STATS_SCOPE],
      });
    });
  });

  describe('an app approved for them', () => {
    it('connected with the switch off, then reconnected after the operator turns it on: the same account gains them', async () => {
      const started = await start();
      switchTo(started.fake, false);
      const first = await connectStart(started.host, started.tenant);
      const accountId = await consentAndReturn(started.host, first.authorizeUrl);
      const before = (await (await read(started, accountId)).json()) as Record<string, unknown>;

      switchTo(started.fake, true);
      const second = await connectStart(started.host, started.tenant);
      const again = await consentAndReturn(started.host, second.authorizeUrl);
      const after = (await (await read(started, accountId)).json()) as Record<string, unknown>;
      const metrics = await read(started, accountId, '/metrics');

      expect(first.asked).toEqual(WITHOUT_METRICS);
      expect(before.missingMetricsScopes).toEqual([...TIKTOK_METRICS_SCOPES]);
      expect(second.asked).toEqual(expect.arrayContaining([...TIKTOK_METRICS_SCOPES]));
      expect(again).toBe(accountId);
      expect(after.scopes).toEqual(expect.arrayContaining([...TIKTOK_METRICS_SCOPES]));
      expect(after).not.toHaveProperty('missingMetricsScopes');
      expect(metrics.status).toBe(409);
      expect(await metrics.json()).toMatchObject({ error: 'metrics_not_collected_yet' });
    });
  });
});
