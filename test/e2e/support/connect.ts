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
