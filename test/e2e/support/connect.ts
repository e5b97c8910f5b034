import { expect } from 'vitest';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import type { TestHost } from '../../support/test-host.js';
import { consentAt } from './consent.js';

/** `POST …/accounts/connect` for the tenant's workspace, as a caller sends it. */
export function requestConnect(
  host: TestHost,
  tenant: BootstrapResult,
  platform: string,
  redirectUri: string,
): Promise<Response> {
  return host.call(`/v1/workspaces/${tenant.workspaceId}/accounts/connect`, {
    method: 'POST',
    apiKey: tenant.apiKey,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform, redirectUri }),
  });
}

/**
 * A whole connect as a person makes it: the connect call, Allow on the fake's consent page, our
 * callback. Answers the account id the callback sends back to `redirectUri`.
 */
export async function connectThroughConsent(
  host: TestHost,
  tenant: BootstrapResult,
  platform: string,
  redirectUri: string,
): Promise<string> {
  const started = await requestConnect(host, tenant, platform, redirectUri);
  const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
  const back = await fetch(await consentAt(authorizeUrl), { redirect: 'manual' });
  return String(new URL(String(back.headers.get('location'))).searchParams.get('accountId'));
}

/**
 * The same connect, checked at each step: the connect call answers 200 with an authorization URL
 * on the fake's consent page, the callback redirects (302) to `redirectUri` with an account id.
 */
export async function connectAtFake(
  host: TestHost,
  tenant: BootstrapResult,
  platform: string,
  redirectUri: string,
  fakeAuthorizeUrl: string,
): Promise<string> {
  const started = await requestConnect(host, tenant, platform, redirectUri);
  expect(started.status).toBe(200);
  const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
  expect(authorizeUrl.startsWith(fakeAuthorizeUrl)).toBe(true);
  const back = await fetch(await consentAt(authorizeUrl), { redirect: 'manual' });
  expect(back.status).toBe(302);
  const accountId = String(new URL(String(back.headers.get('location'))).searchParams.get('accountId'));
  expect(accountId).toMatch(/^acc_/);
  return accountId;
}
