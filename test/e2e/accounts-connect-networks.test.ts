import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LinkedInFake, startLinkedInFake } from '../../infra/fake-networks/linkedin/index.js';
import {
  FAKE_TIKTOK_DEFAULT_CREATOR,
  startTikTokFake,
  type TikTokFake,
} from '../../infra/fake-networks/tiktok/index.js';
import { DEFAULT_FAKE_X_USER, startXFake, type XFake } from '../../infra/fake-networks/x/index.js';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { keys } from '../../shared/adapters/dynamodb/keys.js';
import type { Platform } from '../../shared/domain/platforms.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../shared/runtime/network-config.js';
import { openTokens } from '../../shared/services/accounts/token-vault.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { eventually } from '../support/eventually.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { requestConnect } from './support/connect.js';
import { consentAt } from './support/consent.js';

const BACK = 'https://app.example.com/connected';

/**
 * Connecting an account of each real network end to end, with the service's own connectors against
 * the network fakes over real HTTP: connect → the fake's consent page → our callback → the account
 * stored, its tokens sealed in the table (no token in the clear), then disconnected and revoked.
 */
describe('connecting X, LinkedIn and TikTok accounts through their fakes', () => {
  let x: XFake;
  let linkedIn: LinkedInFake;
  let tiktok: TikTokFake;
  let host: TestHost;
  let tenant: BootstrapResult;

  beforeAll(async () => {
    x = await startXFake();
    // Its default apps: a member app and a Community Management app, each holding only its products.
    linkedIn = await startLinkedInFake({ issueRefreshTokens: true });
    const community = linkedIn.appWith('COMMUNITY_MANAGEMENT_API');
    tiktok = await startTikTokFake();
    const env = {
      X_API_URL: x.apiUrl,
      X_AUTHORIZE_URL: x.authorizeUrl,
      X_CLIENT_ID: x.clientId,
      X_CLIENT_SECRET: x.clientSecret,
      LINKEDIN_API_URL: linkedIn.apiUrl,
      LINKEDIN_OAUTH_URL: linkedIn.oauthUrl,
      LINKEDIN_CLIENT_ID: linkedIn.clientId,
      LINKEDIN_CLIENT_SECRET: linkedIn.clientSecret,
      LINKEDIN_COMMUNITY_CLIENT_ID: community?.clientId,
      LINKEDIN_COMMUNITY_CLIENT_SECRET: community?.clientSecret,
      TIKTOK_API_URL: tiktok.apiUrl,
      TIKTOK_AUTHORIZE_URL: tiktok.authorizeUrl,
      TIKTOK_CLIENT_ID: tiktok.clientId,
      TIKTOK_CLIENT_SECRET: tiktok.clientSecret,
    };
    host = await startTestHost({
      networkEndpoints: loadNetworkEndpoints(env),
      appCredentials: envAppCredentials(env),
      // The outbox, so a disconnect's account.disconnected event is seen.
      delivery: { sandboxLatencyMs: { min: 0, max: 0 } },
    });
    tenant = await host.admin.bootstrap({ name: 'Networks' });
    await host.admin.setRedirectUris({ tenantId: tenant.tenantId, uris: [BACK] });
  });
  afterAll(async () => {
    await host?.stop();
    await x?.stop();
    await linkedIn?.stop();
    await tiktok?.stop();
  });

  const rawItem = async (accountId: string) => {
    const db = makeDocumentClient(
      makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint }),
    );
    try {
      const key = keys.account(tenant.tenantId, tenant.workspaceId, accountId);
      return (await db.send(new GetCommand({ TableName: host.config.tables.main, Key: key }))).Item ?? {};
    } finally {
      db.destroy();
    }
  };

  /** The tokens each fake has handed out so far, access and refresh. */
  const issuedTokens = (platform: Platform): string[] =>
    platform === 'tiktok'
      ? [
          ...tiktok.control.accessTokens().map((t) => t.token),
          ...tiktok.control.refreshTokens().map((t) => t.token),
        ]
      : platform === 'twitter'
        ? [
            ...x.control.tokens().access.map((t) => t.token),
            ...x.control.tokens().refresh.map((t) => t.token),
          ]
        : [
            ...linkedIn.control.accessTokens().map((t) => t.accessToken),
            ...linkedIn.control.refreshTokens().map((t) => t.refreshToken),
          ];
  const revoked = (platform: Platform, accessToken: string): boolean =>
    platform === 'tiktok'
      ? tiktok.control.accessTokens().some((t) => t.token === accessToken && t.revoked)
      : platform === 'twitter'
        ? x.control.tokens().access.some((t) => t.token === accessToken && t.revoked)
        : linkedIn.control.accessTokens().some((t) => t.accessToken === accessToken && t.revoked);

  const cases: [Platform, { networkUserId: string; handle: string }][] = [
    ['twitter', { networkUserId: DEFAULT_FAKE_X_USER.id, handle: `@${DEFAULT_FAKE_X_USER.username}` }],
    ['linkedin', { networkUserId: 'fakeMember1', handle: 'Ada Lovelace' }],
    [
      'tiktok',
      {
        networkUserId: FAKE_TIKTOK_DEFAULT_CREATOR.openId,
        handle: `@${FAKE_TIKTOK_DEFAULT_CREATOR.username}`,
      },
    ],
  ];

  it.each(cases)(
    '%s: consent, callback, account stored with its tokens sealed, then disconnected',
    async (platform, who) => {
      // Act: connect, consent at the fake, come back through our callback.
      const started = await requestConnect(host, tenant, platform, BACK);
      expect(started.status).toBe(200);
      const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
      const callback = await consentAt(authorizeUrl);
      expect(callback.startsWith(`${host.baseUrl}/v1/oauth/${platform}/callback?`)).toBe(true);
      const back = await fetch(callback, { redirect: 'manual' });

      // Assess: back at the caller with the account id.
      expect(back.status).toBe(302);
      const location = new URL(String(back.headers.get('location')));
      expect(`${location.origin}${location.pathname}`).toBe(BACK);
      const accountId = String(location.searchParams.get('accountId'));
      expect(accountId).toMatch(/^acc_/);

      // The account as the API shows it.
      const read = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, {
        apiKey: tenant.apiKey,
      });
      const account = (await read.json()) as Record<string, unknown>;
      expect(account).toMatchObject({
        platform,
        status: 'connected',
        sandbox: false,
        needsReconnect: false,
        ...who,
      });
      expect((account.scopes as string[]).length).toBeGreaterThan(0);
      expect(Date.parse(String(account.tokenExpiresAt))).toBeGreaterThan(Date.now());

      // In the table: sealed, no token in the clear; it opens to a token the network issued.
      const item = await rawItem(accountId);
      const tokens = issuedTokens(platform);
      expect(tokens.length).toBeGreaterThan(0);
      for (const token of tokens) expect(JSON.stringify(item)).not.toContain(token);
      const opened = await openTokens(
        host.deps.secrets,
        { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, accountId },
        String(item.encryptedTokens),
      );
      expect(tokens).toContain(opened.accessToken);
      expect(opened.refreshToken).toBeDefined();

      // Disconnect: the grant is revoked at the network, the tokens leave the table.
      const disconnected = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, {
        method: 'DELETE',
        apiKey: tenant.apiKey,
      });
      expect(disconnected.status).toBe(204);
      expect(revoked(platform, opened.accessToken)).toBe(true);
      expect(await rawItem(accountId)).not.toHaveProperty('encryptedTokens');
      const event = await eventually(
        async () =>
          host.delivery
            ?.events()
            .find((one) => one.type === 'account.disconnected' && one.data.accountId === accountId),
        { what: 'account.disconnected' },
      );
      expect(event.data).toEqual({ accountId, platform, reason: 'disconnected_by_user' });
    },
  );

  /** `POST …/accounts/connect` with the body given. */
  const connectWith = (body: Record<string, unknown>) =>
    host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/connect`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirectUri: BACK, ...body }),
    });

  it('linkedin: with both apps configured, a connect goes through the member app unless linkedinApp says community', async () => {
    const member = linkedIn.appWith('SHARE_ON_LINKEDIN');
    const community = linkedIn.appWith('COMMUNITY_MANAGEMENT_API');

    const byDefault = await connectWith({ platform: 'linkedin' });
    const asked = await connectWith({ platform: 'linkedin', linkedinApp: 'community' });

    const clientOf = async (answer: Response) =>
      new URL(((await answer.json()) as { authorizeUrl: string }).authorizeUrl).searchParams;
    const defaultUrl = await clientOf(byDefault);
    const communityUrl = await clientOf(asked);
    expect(defaultUrl.get('client_id')).toBe(member?.clientId);
    expect(defaultUrl.get('scope')).toBe('openid profile w_member_social');
    expect(communityUrl.get('client_id')).toBe(community?.clientId);
    expect(communityUrl.get('scope')).toBe(
      'r_basicprofile w_member_social w_organization_social r_organization_social rw_organization_admin r_member_postAnalytics r_member_profileAnalytics w_member_social_feed w_organization_social_feed r_organization_social_feed',
    );
  });

  it('linkedin: an account connected through the Community Management app says so, can post as its Page, and is revoked with that app', async () => {
    const community = linkedIn.appWith('COMMUNITY_MANAGEMENT_API');
    const started = await connectWith({ platform: 'linkedin', linkedinApp: 'community' });
    expect(started.status).toBe(200);
    const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };

    const back = await fetch(await consentAt(authorizeUrl), { redirect: 'manual' });

    const accountId = String(new URL(String(back.headers.get('location'))).searchParams.get('accountId'));
    const read = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, {
      apiKey: tenant.apiKey,
    });
    const account = (await read.json()) as Record<string, unknown>;
    expect(account).toMatchObject({
      platform: 'linkedin',
      status: 'connected',
      linkedinApp: 'community',
      handle: 'ada-lovelace',
      displayName: 'Ada Lovelace',
    });
    expect(account.scopes).toEqual(
      expect.arrayContaining(['w_organization_social', 'rw_organization_admin']),
    );
    const issued = linkedIn.control.accessTokens().at(-1);
    expect(issued?.clientId).toBe(community?.clientId);

    const disconnected = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, {
      method: 'DELETE',
      apiKey: tenant.apiKey,
    });
    expect(disconnected.status).toBe(204);
    expect(linkedIn.control.accessTokens().find((t) => t.accessToken === issued?.accessToken)?.revoked).toBe(
      true,
    );
  });

  it('refuses linkedinApp for another platform (400), and an unknown kind of app', async () => {
    const forX = await connectWith({ platform: 'twitter', linkedinApp: 'community' });
    const unknownKind = await connectWith({ platform: 'linkedin', linkedinApp: 'pages' });

    expect(forX.status).toBe(400);
    expect(await forX.json()).toMatchObject({
      error: 'INVALID_REQUEST',
      details: { linkedinApp: ['Only for platform linkedin.'] },
    });
    expect(unknownKind.status).toBe(400);
  });

  it.each(cases)(
    '%s: the person cancels at the network: error=access_denied, no account',
    async (platform) => {
      const before = await host.call(
        `/v1/workspaces/${tenant.workspaceId}/accounts?platform=${platform}&limit=100`,
        {
          apiKey: tenant.apiKey,
        },
      );
      const count = ((await before.json()) as { data: unknown[] }).data.length;
      const started = await requestConnect(host, tenant, platform, BACK);
      const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };

      const back = await fetch(await consentAt(authorizeUrl, 'deny'), { redirect: 'manual' });

      expect(back.status).toBe(302);
      expect(new URL(String(back.headers.get('location'))).searchParams.get('error')).toBe('access_denied');
      const after = await host.call(
        `/v1/workspaces/${tenant.workspaceId}/accounts?platform=${platform}&limit=100`,
        {
          apiKey: tenant.apiKey,
        },
      );
      expect(((await after.json()) as { data: unknown[] }).data).toHaveLength(count);
    },
  );
});
