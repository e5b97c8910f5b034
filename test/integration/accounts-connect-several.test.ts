import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { keys } from '../../shared/adapters/dynamodb/keys.js';
import type { Network } from '../../shared/networks/network.js';
import type { GrantedAccount, TokenSet } from '../../shared/ports/network-oauth.js';
import type { NetworkApp } from '../../shared/runtime/network-config.js';
import { openTokens } from '../../shared/services/accounts/token-vault.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { type FakeOAuthNetwork, startFakeOAuthNetwork } from '../support/fake-oauth-network.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

const APP_URI = 'https://app.example.com/connected';

/**
 * A consent that grants several accounts (the network's OAuth has readAccounts: the person picked
 * several pages in its dialog): the callback stores one account per page, each with its own
 * token; a reconnect keeps every page's account id; none to publish to fails the connect
 * `no_publishable_account` and stores nothing.
 */
describe('connecting a consent that grants several accounts', () => {
  let fake: FakeOAuthNetwork;
  let host: TestHost;
  let tenant: BootstrapResult;
  /** What the network's readAccounts answers next, from the consent's tokens. */
  let granted: (tokens: TokenSet) => GrantedAccount[] = () => [];
  const readWith: TokenSet[] = [];

  beforeAll(async () => {
    fake = await startFakeOAuthNetwork({ platform: 'twitter' });
    const network: Network = {
      ...fake.network,
      oauth: {
        ...fake.network.oauth,
        readAccounts: async (tokens) => {
          readWith.push(tokens);
          return granted(tokens);
        },
      },
    };
    host = await startTestHost({
      networks: new Map([['twitter', network]]),
      appCredentials: {
        credentialsFor: async (app: NetworkApp) => (app === 'X' ? fake.credentials : undefined),
      },
    });
    tenant = await host.admin.bootstrap({ name: 'Several' });
    await host.admin.setRedirectUris({ tenantId: tenant.tenantId, uris: [APP_URI] });
    fake.control.consent = { id: 'person-1', username: 'owner', name: 'Page Owner' };
  });
  afterAll(async () => {
    await host?.stop();
    await fake?.stop();
  });

  const ws = () => `/v1/workspaces/${tenant.workspaceId}`;
  const page = (id: string, name: string, token: string): GrantedAccount => ({
    profile: { networkUserId: id, handle: name, displayName: name },
    tokens: { accessToken: token, scopes: ['pages_manage_posts'] },
  });
  /** connect → consent → callback; where the callback sends the browser. */
  const connectThrough = async (): Promise<URL> => {
    const started = await host.call(`${ws()}/accounts/connect`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'twitter', redirectUri: APP_URI }),
    });
    expect(started.status).toBe(200);
    const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
    const consent = await fetch(authorizeUrl, { redirect: 'manual' });
    const back = await fetch(String(consent.headers.get('location')), { redirect: 'manual' });
    expect(back.status).toBe(302);
    return new URL(String(back.headers.get('location')));
  };
  const listed = async () => {
    const response = await host.call(`${ws()}/accounts?platform=twitter&limit=100`, {
      apiKey: tenant.apiKey,
    });
    const { data } = (await response.json()) as {
      data: { id: string; handle: string; status: string; sandbox: boolean }[];
    };
    // The bootstrap's sandbox account is not of this connect.
    return data.filter((account) => !account.sandbox);
  };
  const storedToken = async (accountId: string) => {
    const db = makeDocumentClient(
      makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint }),
    );
    try {
      const { Item } = await db.send(
        new GetCommand({
          TableName: host.config.tables.main,
          Key: keys.account(tenant.tenantId, tenant.workspaceId, accountId),
        }),
      );
      const opened = await openTokens(
        host.deps.secrets,
        { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, accountId },
        String(Item?.encryptedTokens),
      );
      return opened.accessToken;
    } finally {
      db.destroy();
    }
  };

  it('stores one account per page with its own token; the redirect names the first', async () => {
    granted = () => [
      page('page-1', 'Bakery', 'token-of-page-1'),
      page('page-2', 'Bakery Events', 'token-of-page-2'),
    ];

    const back = await connectThrough();

    // readAccounts got the consent's own tokens, not a page's.
    expect(readWith.at(-1)?.accessToken).toBe(fake.control.issuedAccessTokens.at(-1));
    const accounts = await listed();
    expect(accounts.map((account) => account.handle).sort()).toEqual(['Bakery', 'Bakery Events']);
    const first = accounts.find((account) => account.handle === 'Bakery');
    const second = accounts.find((account) => account.handle === 'Bakery Events');
    expect(back.searchParams.get('accountId')).toBe(first?.id);
    expect(await storedToken(String(first?.id))).toBe('token-of-page-1');
    expect(await storedToken(String(second?.id))).toBe('token-of-page-2');
  });

  it('a reconnect keeps each page’s account id and adds a page picked for the first time', async () => {
    const before = await listed();
    granted = () => [
      page('page-2', 'Bakery Events', 'new-token-2'),
      page('page-1', 'Bakery', 'new-token-1'),
      page('page-3', 'Bakery Outlet', 'token-of-page-3'),
    ];

    const back = await connectThrough();

    const after = await listed();
    expect(after).toHaveLength(3);
    for (const account of before) expect(after.map((item) => item.id)).toContain(account.id);
    expect(back.searchParams.get('accountId')).toBe(
      before.find((account) => account.handle === 'Bakery Events')?.id,
    );
    const bakery = after.find((account) => account.handle === 'Bakery');
    expect(await storedToken(String(bakery?.id))).toBe('new-token-1');
  });

  it('without redirectUri, the result page names every page connected', async () => {
    granted = () => [page('page-1', 'Bakery', 'token-1'), page('page-2', 'Bakery Events', 'token-2')];
    const started = await host.call(`${ws()}/accounts/connect`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'twitter' }),
    });
    const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
    const consent = await fetch(authorizeUrl, { redirect: 'manual' });
    const result = await fetch(String(consent.headers.get('location')), { redirect: 'manual' });

    expect(result.status).toBe(200);
    const html = await result.text();
    expect(html).toContain('Accounts connected');
    expect(html).toContain('Bakery (Bakery) on X is connected.');
    expect(html).toMatch(/Also connected: Bakery Events \(Bakery Events\), account id acc_[0-9A-Z]{26}\./);
  });

  it('none to publish to: error=no_publishable_account, and nothing stored', async () => {
    const before = await listed();
    granted = () => [];

    const back = await connectThrough();

    expect(back.searchParams.get('error')).toBe('no_publishable_account');
    expect(back.searchParams.get('error_description')).toMatch(/no account this service can publish to/);
    expect(back.searchParams.get('accountId')).toBeNull();
    expect(await listed()).toHaveLength(before.length);
  });
});
