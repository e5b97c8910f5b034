import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { keys } from '../../shared/adapters/dynamodb/keys.js';
import { fixedClock } from '../../shared/ports/clock.js';
import type { AppCredentials, NetworkApp } from '../../shared/runtime/network-config.js';
import { hashState } from '../../shared/services/accounts/oauth-state.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { type FakeOAuthNetwork, startFakeOAuthNetwork } from '../support/fake-oauth-network.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

const APP_URI = 'https://app.example.com/connected';
const WORKSPACE_URI = 'https://client.example.org/back';
const TEN_MINUTES_MS = 10 * 60 * 1000;

/**
 * Connecting accounts over real HTTP: POST …/accounts/connect, the network's consent (a fake OAuth
 * network on loopback that checks the client, the code, the redirect URI and PKCE as a real one
 * does), the callback with its redirect or page, the stored account, and disconnecting it.
 */
describe('connecting accounts', () => {
  let fake: FakeOAuthNetwork;
  let host: TestHost;
  let tenant: BootstrapResult;
  const clock = fixedClock(Date.now());
  let credentials: AppCredentials | undefined;
  const db = () =>
    makeDocumentClient(makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint }));

  beforeAll(async () => {
    fake = await startFakeOAuthNetwork({ platform: 'twitter' });
    host = await startTestHost({
      clock,
      networks: new Map([['twitter', fake.network]]),
      appCredentials: {
        credentialsFor: async (app: NetworkApp) => (app === 'X' ? credentials : undefined),
      },
    });
    tenant = await host.admin.bootstrap({ name: 'Connect' });
    await host.admin.setRedirectUris({ tenantId: tenant.tenantId, uris: [APP_URI] });
    await host.admin.setRedirectUris({
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      uris: [WORKSPACE_URI],
    });
  });
  afterAll(async () => {
    await host?.stop();
    await fake?.stop();
  });
  beforeEach(() => {
    credentials = fake.credentials;
    fake.control.consent = {
      id: 'user-1',
      username: 'ada',
      name: 'Ada Lovelace',
      avatarUrl: 'https://img.example/ada.png',
    };
    fake.control.issueRefreshToken = true;
    fake.control.expiresInSeconds = 7200;
  });

  const ws = () => `/v1/workspaces/${tenant.workspaceId}`;
  const connect = (body: unknown, apiKey = tenant.apiKey) =>
    host.call(`${ws()}/accounts/connect`, {
      method: 'POST',
      apiKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** The person consents at the network: its answer sends the browser to our callback. */
  const consent = async (authorizeUrl: string) => {
    const answer = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    return String(answer.headers.get('location'));
  };
  const visit = (url: string) => fetch(url, { redirect: 'manual' });
  /** connect → consent → callback; the callback's answer. */
  const connectThrough = async (body: Record<string, unknown> = { platform: 'twitter' }) => {
    const started = await connect(body);
    expect(started.status).toBe(200);
    const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
    return visit(await consent(authorizeUrl));
  };
  const readAccount = async (accountId: string) => {
    const response = await host.call(`${ws()}/accounts/${accountId}`, { apiKey: tenant.apiKey });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };
  const rawAccount = async (accountId: string) => {
    const client = db();
    try {
      const { Item } = await client.send(
        new GetCommand({
          TableName: host.config.tables.main,
          Key: keys.account(tenant.tenantId, tenant.workspaceId, accountId),
        }),
      );
      return Item ?? {};
    } finally {
      client.destroy();
    }
  };
  const accountIdIn = (location: string) => String(new URL(location).searchParams.get('accountId'));

  describe('POST …/accounts/connect', () => {
    it("answers the network's authorization URL: state, our callback, a PKCE S256 challenge, 10 minutes", async () => {
      // Act
      const response = await connect({ platform: 'x' });

      // Assess
      expect(response.status).toBe(200);
      const body = (await response.json()) as { authorizeUrl: string; expiresAt: string };
      const url = new URL(body.authorizeUrl);
      expect(`${url.origin}${url.pathname}`).toBe(`${fake.baseUrl}/authorize`);
      expect(url.searchParams.get('client_id')).toBe(fake.credentials.clientId);
      expect(url.searchParams.get('redirect_uri')).toBe(`${host.baseUrl}/v1/oauth/twitter/callback`);
      expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(body.expiresAt).toBe(new Date(clock.now() + TEN_MINUTES_MS).toISOString());
    });

    it('refuses a redirectUri that is not HTTPS, has a fragment or credentials, or is on no allow-list', async () => {
      const cases: [string, RegExp][] = [
        ['ftp://app.example.com/connected', /HTTPS/],
        ['https://app.example.com/connected#done', /fragment/],
        ['https://user:pw@app.example.com/connected', /user name or password/],
        ['https://app.example.com/elsewhere', /allow-list/],
        ['https://evil.example.com/connected', /allow-list/],
        ['not a url', /absolute URL/],
      ];
      for (const [redirectUri, problem] of cases) {
        const body = await expectEnvelope(
          await connect({ platform: 'twitter', redirectUri }),
          400,
          'INVALID_REQUEST',
        );
        expect(body.details, redirectUri).toEqual({ redirectUri: [expect.stringMatching(problem)] });
      }
    });

    it('refuses a redirectUri with a control character or a space at either end, naming the field', async () => {
      for (const redirectUri of [
        `${APP_URI}\n`,
        `${APP_URI}?next=a\r\nSet-Cookie:x=1`,
        `${APP_URI}?a=\tb`,
        `${APP_URI}?a=\u0000`,
        ` ${APP_URI}`,
        `${APP_URI} `,
      ]) {
        const body = await expectEnvelope(
          await connect({ platform: 'twitter', redirectUri }),
          400,
          'INVALID_REQUEST',
        );
        expect(body.details, JSON.stringify(redirectUri)).toEqual({
          redirectUri: [expect.stringMatching(/control character|begin or end/)],
        });
      }
    });

    it('refuses a redirectUri whose query has accountId, error or error_description: those are ours', async () => {
      for (const query of ['accountId=acc_1', 'x=1&error=access_denied', 'error_description=', 'accountId']) {
        const body = await expectEnvelope(
          await connect({ platform: 'twitter', redirectUri: `${APP_URI}?${query}` }),
          400,
          'INVALID_REQUEST',
        );
        expect(body.details, query).toEqual({ redirectUri: [expect.stringMatching(/accountId/)] });
      }
    });

    it("accepts a redirectUri on the tenant's or the workspace's list, with a query of the caller's own", async () => {
      for (const redirectUri of [APP_URI, `${WORKSPACE_URI}?session=a%20b&x=1`]) {
        expect((await connect({ platform: 'twitter', redirectUri })).status).toBe(200);
      }
    });

    it('answers 400 for an unknown platform or an unknown field', async () => {
      const unknown = await expectEnvelope(await connect({ platform: 'myspace' }), 400, 'INVALID_REQUEST');
      expect(Object.keys(unknown.details as object)).toEqual(['platform']);
      await expectEnvelope(await connect({ platform: 'twitter', scopes: ['all'] }), 400, 'INVALID_REQUEST');
    });

    it('answers 409 network_not_configured for a network without connector or without app credentials', async () => {
      const noConnector = await expectEnvelope(
        await connect({ platform: 'linkedin' }),
        409,
        'network_not_configured',
      );
      expect(noConnector.platform).toBe('linkedin');
      credentials = undefined;
      await expectEnvelope(await connect({ platform: 'twitter' }), 409, 'network_not_configured');
    });

    it('answers 503 when the deployment does not know its public address', async () => {
      const base = host.deps.publicBaseUrl;
      host.deps.publicBaseUrl = undefined;
      try {
        await expectEnvelope(await connect({ platform: 'twitter' }), 503, 'service_unavailable');
      } finally {
        host.deps.publicBaseUrl = base;
      }
    });

    it('needs the accounts:connect permission', async () => {
      const agent = await host.admin.createAgent(
        { role: 'owner' },
        {
          tenantId: tenant.tenantId,
          name: 'Reader',
          fromWorkspaceId: tenant.workspaceId,
          permissions: ['accounts:read'],
        },
      );
      const key = await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId });
      const body = await expectEnvelope(
        await connect({ platform: 'twitter' }, key.plaintext),
        403,
        'permission_denied',
      );
      expect(body.required).toBe('accounts:connect');
    });
  });

  describe('GET /v1/oauth/{platform}/callback', () => {
    it('without redirectUri: stores the account and shows a plain page that runs nothing', async () => {
      // Prepare
      fake.control.consent = { id: 'user-page', username: 'bob', name: 'Bob <script>alert(1)</script>' };

      // Act
      const response = await connectThrough();

      // Assess
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      expect(response.headers.get('content-security-policy')).not.toMatch(/script-src|unsafe/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      const page = await response.text();
      expect(page).toContain('Account connected');
      expect(page).toContain('Bob &lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page).not.toMatch(/<script/i);
      const accountId = /acc_[0-9A-Z]{26}/.exec(page)?.[0] ?? '';
      expect((await readAccount(accountId)).handle).toBe('@bob');
    });

    it("with redirectUri: sends the browser back with accountId, the caller's query kept", async () => {
      // Act
      const response = await connectThrough({
        platform: 'twitter',
        redirectUri: `${WORKSPACE_URI}?session=a%20b`,
      });

      // Assess
      expect(response.status).toBe(302);
      const location = String(response.headers.get('location'));
      expect(location).toMatch(new RegExp(`^${WORKSPACE_URI}\\?session=a%20b&accountId=acc_[0-9A-Z]{26}$`));
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    });

    it('sends the browser back to the normalised redirectUri: characters a URL encodes never make a 500', async () => {
      // Act
      const response = await connectThrough({ platform: 'twitter', redirectUri: `${APP_URI}?who=Zoë €` });

      // Assess
      expect(response.status).toBe(302);
      expect(String(response.headers.get('location'))).toMatch(
        new RegExp(`^${APP_URI}\\?who=Zo%C3%AB%20%E2%82%AC&accountId=acc_[0-9A-Z]{26}$`),
      );
    });

    /** A connect started, whose stored redirectUri is then replaced (as one stored before the rules). */
    const connectStoredWith = async (redirectUri: string, networkUserId: string) => {
      fake.control.consent = { id: networkUserId, username: networkUserId, name: 'Stored' };
      const started = (await (await connect({ platform: 'twitter', redirectUri: APP_URI })).json()) as {
        authorizeUrl: string;
      };
      const state = String(new URL(started.authorizeUrl).searchParams.get('state'));
      const client = db();
      try {
        await client.send(
          new UpdateCommand({
            TableName: host.config.tables.main,
            Key: keys.oauthState(hashState(state)),
            UpdateExpression: 'SET redirectUri = :uri',
            ExpressionAttributeValues: { ':uri': redirectUri },
          }),
        );
      } finally {
        client.destroy();
      }
      return visit(await consent(started.authorizeUrl));
    };
    const storedAccount = (networkUserId: string) =>
      host.deps.tenancy.findAccountByNetworkUser(
        tenant.tenantId,
        tenant.workspaceId,
        'twitter',
        networkUserId,
      );
    const storeAccountOrFail = async (networkUserId: string) => {
      const account = await storedAccount(networkUserId);
      if (!account) throw new Error(`no account stored for ${networkUserId}`);
      return account;
    };

    it('a stored redirectUri with a line break is sent back normalised, the account stored', async () => {
      // Act
      const response = await connectStoredWith(`${APP_URI}\n`, 'user-stored-newline');

      // Assess
      expect(response.status).toBe(302);
      const account = await storeAccountOrFail('user-stored-newline');
      expect(response.headers.get('location')).toBe(`${APP_URI}?accountId=${account.accountId}`);
    });

    it('a stored redirectUri that cannot be redirected to stores no account: the page says so', async () => {
      // Act
      const response = await connectStoredWith('https://app.example.com:99999/connected', 'user-stored-bad');

      // Assess
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('server_error');
      expect(await storedAccount('user-stored-bad')).toBeUndefined();
    });

    it('the account read shows the profile, scopes, token expiry and needsReconnect, never a token', async () => {
      // Act
      const response = await connectThrough({ platform: 'twitter', redirectUri: APP_URI });
      const accountId = accountIdIn(String(response.headers.get('location')));

      // Assess
      const account = await readAccount(accountId);
      expect(account).toMatchObject({
        id: accountId,
        platform: 'twitter',
        handle: '@ada',
        displayName: 'Ada Lovelace',
        avatarUrl: 'https://img.example/ada.png',
        networkUserId: 'user-1',
        status: 'connected',
        sandbox: false,
        scopes: ['read', 'write', 'offline'],
        needsReconnect: false,
      });
      expect(Date.parse(String(account.tokenExpiresAt))).toBeGreaterThan(Date.now());
      const token = fake.control.issuedAccessTokens.at(-1) ?? '';
      const text = JSON.stringify(account);
      expect(text).not.toContain(token);
      expect(text).not.toMatch(/encryptedTokens|tokensVersion|refreshable/);
      // Stored sealed: the table holds no plaintext token.
      const raw = await rawAccount(accountId);
      expect(raw.encryptedTokens).toEqual(expect.any(String));
      expect(JSON.stringify(raw)).not.toContain(token);
    });

    it('reconnecting the same network user keeps the account id, even after a disconnect', async () => {
      // Prepare
      fake.control.consent = { id: 'user-again', username: 'cy', name: 'Cy' };
      const first = accountIdIn(
        String((await connectThrough({ platform: 'twitter', redirectUri: APP_URI })).headers.get('location')),
      );
      const disconnected = await host.call(`${ws()}/accounts/${first}`, {
        method: 'DELETE',
        apiKey: tenant.apiKey,
      });
      expect(disconnected.status).toBe(204);
      fake.control.consent = { id: 'user-again', username: 'cy_renamed', name: 'Cy R.' };

      // Act
      const again = accountIdIn(
        String((await connectThrough({ platform: 'twitter', redirectUri: APP_URI })).headers.get('location')),
      );

      // Assess
      expect(again).toBe(first);
      const account = await readAccount(first);
      expect(account).toMatchObject({ status: 'connected', handle: '@cy_renamed', needsReconnect: false });
      expect(account).not.toHaveProperty('disconnectedAt');
      expect(account).not.toHaveProperty('disconnectReason');
      const list = await host.call(`${ws()}/accounts?platform=twitter&limit=100`, { apiKey: tenant.apiKey });
      const ids = ((await list.json()) as { data: { id: string; handle: string }[] }).data.filter((a) =>
        a.handle.startsWith('@cy'),
      );
      expect(ids.map((a) => a.id)).toEqual([first]);
    });

    it('a replayed callback is refused with a page and stores nothing more', async () => {
      // Prepare
      const started = (await (await connect({ platform: 'twitter', redirectUri: APP_URI })).json()) as {
        authorizeUrl: string;
      };
      const callbackUrl = await consent(started.authorizeUrl);
      expect((await visit(callbackUrl)).status).toBe(302);

      // Act
      const replay = await visit(callbackUrl);

      // Assess
      expect(replay.status).toBe(400);
      expect(replay.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(replay.headers.get('location')).toBeNull();
      expect(await replay.text()).toContain('no longer valid');
    });

    it('refuses an unknown state, a state of another network, and one past its 10 minutes', async () => {
      const bogus = await visit(`${host.baseUrl}/v1/oauth/twitter/callback?state=made-up&code=abc`);
      expect(bogus.status).toBe(400);
      expect(await bogus.text()).toContain('no longer valid');

      const started = (await (await connect({ platform: 'twitter' })).json()) as { authorizeUrl: string };
      const elsewhere = (await consent(started.authorizeUrl)).replace('/oauth/twitter/', '/oauth/linkedin/');
      expect((await visit(elsewhere)).status).toBe(400);

      const late = (await (await connect({ platform: 'twitter' })).json()) as { authorizeUrl: string };
      const lateCallback = await consent(late.authorizeUrl);
      clock.advance(TEN_MINUTES_MS);
      try {
        const response = await visit(lateCallback);
        expect(response.status).toBe(400);
        expect(await response.text()).toContain('no longer valid');
      } finally {
        clock.advance(-TEN_MINUTES_MS);
      }
    });

    it('a callback without state is a 400 envelope: there is no connect to speak of', async () => {
      await expectEnvelope(
        await visit(`${host.baseUrl}/v1/oauth/twitter/callback?code=abc`),
        400,
        'INVALID_REQUEST',
      );
      await expectEnvelope(
        await visit(`${host.baseUrl}/v1/oauth/myspace/callback?state=s`),
        400,
        'INVALID_REQUEST',
      );
    });

    it('the person declines: error=access_denied on the redirect, or a page saying so', async () => {
      fake.control.consent = 'deny';
      const redirected = await connectThrough({ platform: 'twitter', redirectUri: APP_URI });
      expect(redirected.status).toBe(302);
      const location = new URL(String(redirected.headers.get('location')));
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('error_description')).toBe(
        'The connection was declined on the network.',
      );
      expect(location.searchParams.get('accountId')).toBeNull();

      const page = await connectThrough();
      expect(page.status).toBe(400);
      const text = await page.text();
      expect(text).toContain('The account was not connected');
      expect(text).toContain('access_denied');
    });

    it('a code the network refuses is grant_refused; a network that is away is temporarily_unavailable', async () => {
      const started = (await (await connect({ platform: 'twitter', redirectUri: APP_URI })).json()) as {
        authorizeUrl: string;
      };
      const tampered = new URL(await consent(started.authorizeUrl));
      tampered.searchParams.set('code', 'not-the-code');
      const refused = await visit(tampered.toString());
      expect(new URL(String(refused.headers.get('location'))).searchParams.get('error')).toBe(
        'grant_refused',
      );

      fake.control.failNextToken = true;
      const away = await connectThrough({ platform: 'twitter', redirectUri: APP_URI });
      expect(new URL(String(away.headers.get('location'))).searchParams.get('error')).toBe(
        'temporarily_unavailable',
      );
    });

    it('an agent that lost accounts:connect before the person came back connects nothing', async () => {
      // Prepare
      const agent = await host.admin.createAgent(
        { role: 'owner' },
        { tenantId: tenant.tenantId, name: 'Short-lived', fromWorkspaceId: tenant.workspaceId },
      );
      const key = await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId });
      const started = (await (
        await connect({ platform: 'twitter', redirectUri: APP_URI }, key.plaintext)
      ).json()) as {
        authorizeUrl: string;
      };
      const callbackUrl = await consent(started.authorizeUrl);
      await host.admin.deleteAgent(tenant.tenantId, agent.agentId);

      // Act
      const response = await visit(callbackUrl);

      // Assess
      expect(new URL(String(response.headers.get('location'))).searchParams.get('error')).toBe(
        'not_authorized',
      );
    });

    it('needsReconnect: a token that ends within a week with no refresh token to renew it', async () => {
      fake.control.consent = { id: 'user-short', username: 'dee', name: 'Dee' };
      fake.control.issueRefreshToken = false;
      fake.control.expiresInSeconds = 3600;
      const response = await connectThrough({ platform: 'twitter', redirectUri: APP_URI });
      const account = await readAccount(accountIdIn(String(response.headers.get('location'))));
      expect(account).toMatchObject({ status: 'connected', needsReconnect: true });
    });

    it('logs neither the code, the state nor a token', async () => {
      const started = (await (await connect({ platform: 'twitter', redirectUri: APP_URI })).json()) as {
        authorizeUrl: string;
      };
      const callbackUrl = new URL(await consent(started.authorizeUrl));
      await visit(callbackUrl.toString());
      const logged = JSON.stringify(host.logs);
      for (const secret of [
        callbackUrl.searchParams.get('code') ?? '',
        callbackUrl.searchParams.get('state') ?? '',
        fake.control.issuedAccessTokens.at(-1) ?? '',
      ]) {
        expect(secret.length).toBeGreaterThan(8);
        expect(logged).not.toContain(secret);
      }
      expect(host.logs.some((entry) => entry.message === 'account connected')).toBe(true);
    });
  });

  describe('DELETE …/accounts/{account_id}', () => {
    it('disconnects: reason disconnected_by_user, tokens deleted, the grant revoked at the network', async () => {
      // Prepare
      fake.control.consent = { id: 'user-bye', username: 'eve', name: 'Eve' };
      const response = await connectThrough({ platform: 'twitter', redirectUri: APP_URI });
      const accountId = accountIdIn(String(response.headers.get('location')));
      const token = fake.control.issuedAccessTokens.at(-1);

      // Act
      const deleted = await host.call(`${ws()}/accounts/${accountId}`, {
        method: 'DELETE',
        apiKey: tenant.apiKey,
      });

      // Assess
      expect(deleted.status).toBe(204);
      expect(await deleted.text()).toBe('');
      expect(fake.control.revokedTokens).toContain(token);
      const account = await readAccount(accountId);
      expect(account).toMatchObject({
        status: 'disconnected',
        disconnectReason: 'disconnected_by_user',
        disconnectedAt: new Date(clock.now()).toISOString(),
        needsReconnect: true,
      });
      expect(await rawAccount(accountId)).not.toHaveProperty('encryptedTokens');
      // Again: nothing more to do, the same answer.
      const again = await host.call(`${ws()}/accounts/${accountId}`, {
        method: 'DELETE',
        apiKey: tenant.apiKey,
      });
      expect(again.status).toBe(204);
      expect(fake.control.revokedTokens.filter((revoked) => revoked === token)).toHaveLength(1);
    });

    it('disconnects a sandbox account too (nothing to revoke); 404 for an account it cannot see', async () => {
      const sandbox = tenant.accounts.tiktok;
      const deleted = await host.call(`${ws()}/accounts/${sandbox}`, {
        method: 'DELETE',
        apiKey: tenant.apiKey,
      });
      expect(deleted.status).toBe(204);
      expect(await readAccount(sandbox)).toMatchObject({
        status: 'disconnected',
        sandbox: true,
        needsReconnect: true,
      });

      const stranger = await host.admin.bootstrap({ name: 'Stranger' });
      await expectEnvelope(
        await host.call(`${ws()}/accounts/${stranger.accounts.twitter}`, {
          method: 'DELETE',
          apiKey: tenant.apiKey,
        }),
        404,
        'not_found',
      );
      expect(
        (
          await host.call(`/v1/workspaces/${stranger.workspaceId}/accounts/${stranger.accounts.twitter}`, {
            apiKey: stranger.apiKey,
          })
        ).status,
      ).toBe(200);
    });

    it('needs the accounts:connect permission', async () => {
      const agent = await host.admin.createAgent(
        { role: 'owner' },
        {
          tenantId: tenant.tenantId,
          name: 'Poster',
          fromWorkspaceId: tenant.workspaceId,
          permissions: ['posts:write', 'accounts:read'],
        },
      );
      const key = await host.admin.createApiKey({ tenantId: tenant.tenantId, agentId: agent.agentId });
      await expectEnvelope(
        await host.call(`${ws()}/accounts/${tenant.accounts.youtube}`, {
          method: 'DELETE',
          apiKey: key.plaintext,
        }),
        403,
        'permission_denied',
      );
      expect(await readAccount(tenant.accounts.youtube)).toMatchObject({ status: 'connected' });
    });
  });
});
