import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_YOUTUBE_DEFAULT_CHANNEL,
  startYouTubeFake,
  type YouTubeFake,
} from '../../infra/fake-networks/youtube/index.js';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { keys } from '../../shared/adapters/dynamodb/keys.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../shared/runtime/network-config.js';
import { openTokens } from '../../shared/services/accounts/token-vault.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { requestConnect } from './support/connect.js';
import { consentAt } from './support/consent.js';

const BACK = 'https://app.example.com/connected';

/**
 * Connecting a YouTube channel end to end, with the service's connector against the fake over real
 * HTTP: connect → Google's (fake) consent page with PKCE and offline access → our callback → the
 * account is the channel, its tokens sealed (a refresh token among them) → disconnect revokes.
 */
describe('connecting a YouTube channel through its fake', () => {
  let youTube: YouTubeFake;
  let host: TestHost;
  let tenant: BootstrapResult;

  beforeAll(async () => {
    youTube = await startYouTubeFake();
    const env = {
      YOUTUBE_API_URL: youTube.apiUrl,
      YOUTUBE_UPLOAD_URL: youTube.uploadUrl,
      YOUTUBE_ANALYTICS_API_URL: youTube.analyticsUrl,
      GOOGLE_AUTHORIZE_URL: youTube.authorizeUrl,
      GOOGLE_TOKEN_URL: youTube.tokenUrl,
      GOOGLE_CLIENT_ID: youTube.clientId,
      GOOGLE_CLIENT_SECRET: youTube.clientSecret,
    };
    host = await startTestHost({
      networkEndpoints: loadNetworkEndpoints(env),
      appCredentials: envAppCredentials(env),
    });
    tenant = await host.admin.bootstrap({ name: 'Videos' });
    await host.admin.setRedirectUris({ tenantId: tenant.tenantId, uris: [BACK] });
  });
  afterAll(async () => {
    await host?.stop();
    await youTube?.stop();
  });

  it('consent, callback, the channel stored as the account with its tokens sealed, then disconnected and revoked', async () => {
    const started = await requestConnect(host, tenant, 'youtube', BACK);
    expect(started.status).toBe(200);
    const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
    const asked = new URL(authorizeUrl).searchParams;
    expect(asked.get('access_type')).toBe('offline');
    expect(asked.get('code_challenge_method')).toBe('S256');

    const back = await fetch(await consentAt(authorizeUrl), { redirect: 'manual' });

    expect(back.status).toBe(302);
    const accountId = String(new URL(String(back.headers.get('location'))).searchParams.get('accountId'));
    expect(accountId).toMatch(/^acc_/);
    const read = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, {
      apiKey: tenant.apiKey,
    });
    expect(await read.json()).toMatchObject({
      platform: 'youtube',
      status: 'connected',
      networkUserId: FAKE_YOUTUBE_DEFAULT_CHANNEL.id,
      handle: FAKE_YOUTUBE_DEFAULT_CHANNEL.customUrl,
      displayName: FAKE_YOUTUBE_DEFAULT_CHANNEL.title,
      scopes: [
        'https://www.googleapis.com/auth/youtube.upload',
        'https://www.googleapis.com/auth/youtube.readonly',
        'https://www.googleapis.com/auth/yt-analytics.readonly',
        'https://www.googleapis.com/auth/youtube.force-ssl',
      ],
    });
    const db = makeDocumentClient(
      makeDynamoClient({ region: 'us-east-1', endpoint: host.config.dynamodbEndpoint }),
    );
    const key = keys.account(tenant.tenantId, tenant.workspaceId, accountId);
    const item = (await db.send(new GetCommand({ TableName: host.config.tables.main, Key: key }))).Item ?? {};
    const opened = await openTokens(
      host.deps.secrets,
      { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, accountId },
      String(item.encryptedTokens),
    );
    expect(JSON.stringify(item)).not.toContain(opened.accessToken);
    expect(youTube.control.refreshTokens().map((token) => token.refreshToken)).toContain(opened.refreshToken);

    const disconnected = await host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/${accountId}`, {
      method: 'DELETE',
      apiKey: tenant.apiKey,
    });

    expect(disconnected.status).toBe(204);
    expect(youTube.control.refreshTokens().every((token) => token.revoked)).toBe(true);
    db.destroy();
  });
});
