import { newId } from '../../shared/domain/ids.js';
import type { Media } from '../../shared/domain/media.js';
import type { WorkspacePolicies } from '../../shared/domain/policies.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import type { TestHost } from './test-host.js';

/** Helpers for tests of the posts endpoints, against one bootstrapped tenant. */
export function postsClient(host: TestHost, tenant: BootstrapResult) {
  const base = `/v1/workspaces/${tenant.workspaceId}/posts`;
  const json = { 'Content-Type': 'application/json' };
  return {
    base,
    create: (body: unknown, headers: Record<string, string> = {}) =>
      host.call(base, {
        method: 'POST',
        apiKey: tenant.apiKey,
        headers: { ...json, ...headers },
        body: JSON.stringify(body),
      }),
    get: (postId: string) => host.call(`${base}/${postId}`, { apiKey: tenant.apiKey }),
    list: (query = '') => host.call(`${base}${query}`, { apiKey: tenant.apiKey }),
    patch: (postId: string, body: unknown) =>
      host.call(`${base}/${postId}`, {
        method: 'PATCH',
        apiKey: tenant.apiKey,
        headers: json,
        body: JSON.stringify(body),
      }),
    cancel: (postId: string) => host.call(`${base}/${postId}`, { method: 'DELETE', apiKey: tenant.apiKey }),
    approve: (postId: string, apiKey = tenant.apiKey) =>
      host.call(`${base}/${postId}/approve`, { method: 'POST', apiKey }),
    reject: (postId: string, reason: string, apiKey = tenant.apiKey) =>
      host.call(`${base}/${postId}/reject`, {
        method: 'POST',
        apiKey,
        headers: json,
        body: JSON.stringify({ reason }),
      }),
  };
}

/** A text post for the short-message network, ready to publish. */
export function tweet(tenant: BootstrapResult, overrides: Record<string, unknown> = {}) {
  return {
    platform: 'twitter',
    accountId: tenant.accounts.twitter,
    status: 'publish',
    postType: 'text',
    content: 'hello',
    ...overrides,
  };
}

/** Stores a media record in the workspace, as the media capability will after an upload. */
export async function seedMedia(
  host: TestHost,
  tenant: BootstrapResult,
  mimeType: string,
  status: Media['status'] = 'uploaded',
): Promise<string> {
  const mediaId = newId('media');
  await host.deps.media.put({
    mediaId,
    tenantId: tenant.tenantId,
    workspaceId: tenant.workspaceId,
    filename: 'file',
    mimeType,
    sizeBytes: 1000,
    status,
    createdAt: new Date().toISOString(),
    ...(status === 'uploaded' && { uploadedAt: new Date().toISOString() }),
  });
  return mediaId;
}

export const inOneHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** The workspace policies the policy-facet tests set: one way to break each facet. */
export const POLICED_WORKSPACE: WorkspacePolicies = {
  blockedTerms: ['guaranteed returns'],
  allowedPlatforms: ['twitter', 'instagram'],
  blackoutDates: ['2030-12-25'],
  requireAltText: true,
};

/** For each policy facet, a body that breaks it under POLICED_WORKSPACE. */
export const POLICY_FACET_CASES: [string, (tenant: BootstrapResult) => Record<string, unknown>][] = [
  ['content', (t) => tweet(t, { content: 'Guaranteed returns, every time!' })],
  ['platform', (t) => ({ ...tweet(t), platform: 'linkedin', accountId: t.accounts.linkedin })],
  ['schedule', (t) => tweet(t, { status: 'scheduled', scheduledAt: '2030-12-25T12:00:00Z' })],
  [
    'media',
    (t) => tweet(t, { postType: 'image', media: [{ url: 'https://cdn.example.com/a.jpg', type: 'image' }] }),
  ],
];
