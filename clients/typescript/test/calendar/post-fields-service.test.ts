import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../../../../test/support/test-host.js';
import { changedFields } from '../../src/calendar/post-fields.js';
import { createClient, type SocialPublishingClient } from '../../src/index.js';
import type { CreatePostBody } from '../../src/types.js';

/**
 * What the service stores of a create must read back as the same fields, or every plan after an
 * apply would plan the same edit again. Posts are timed a month out: none is sent meanwhile.
 */
describe('a calendar body against what the local host stores of it', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let client: SocialPublishingClient;
  const inAMonth = new Date(Date.now() + 30 * 86_400_000);
  inAMonth.setUTCSeconds(0, 0);

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Calendar fields' });
    client = createClient({ baseUrl: host.baseUrl, apiKey: tenant.apiKey });
  });
  afterAll(async () => {
    await host.stop();
  });

  async function storedAs(body: CreatePostBody) {
    const created = await client.createPost(tenant.workspaceId, body);
    return client.getPost(tenant.workspaceId, created.id);
  }

  it('reads back a LinkedIn post with options, a first comment and a link card as unchanged', async () => {
    const body: CreatePostBody = {
      platform: 'linkedin',
      accountId: tenant.accounts.linkedin,
      status: 'scheduled',
      // Any offset: the service stores UTC.
      scheduledAt: `${inAMonth.toISOString().slice(0, 16)}:00+02:00`,
      postType: 'text',
      content: 'Our spring collection launches next week.',
      platformOptions: { linkedin: { visibility: 'CONNECTIONS' } },
      firstComment: { text: 'Sign up for early access.' },
      link: { url: 'https://example.com/spring', title: 'Spring', description: 'The collection' },
      media: [],
    };
    expect(changedFields(body, await storedAs(body))).toEqual([]);
  });

  it('reads back options given under x as the same post', async () => {
    const body: CreatePostBody = {
      platform: 'x',
      accountId: tenant.accounts.twitter,
      status: 'scheduled',
      scheduledAt: inAMonth.toISOString(),
      postType: 'text',
      content: 'Who may reply: followers.',
      platformOptions: { x: { replySettings: 'following' } },
    };
    expect(changedFields(body, await storedAs(body))).toEqual([]);
  });

  it('reads back a thread and a timeless draft as unchanged, and sees one edited part', async () => {
    const thread: CreatePostBody = {
      platform: 'bluesky',
      accountId: tenant.accounts.bluesky,
      status: 'scheduled',
      scheduledAt: inAMonth.toISOString(),
      postType: 'thread',
      content: [{ text: 'One' }, { text: 'Two' }],
    };
    const draft: CreatePostBody = {
      platform: 'linkedin',
      accountId: tenant.accounts.linkedin,
      status: 'draft',
      postType: 'text',
      content: 'An idea for later.',
    };
    const storedThread = await storedAs(thread);
    expect(changedFields(thread, storedThread)).toEqual([]);
    expect(changedFields(draft, await storedAs(draft))).toEqual([]);
    expect(
      changedFields({ ...thread, content: [{ text: 'One' }, { text: 'Two, edited' }] }, storedThread),
    ).toEqual(['content']);
  });
});
