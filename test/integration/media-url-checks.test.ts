import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { expectEnvelope } from '../support/envelope.js';
import { postsClient, tweet } from '../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

/**
 * Issue 9, finding 4: a media URL the fetcher would refuse without a DNS lookup (here: a port other
 * than 443) is refused when the request names it, for posts and imports alike, with details naming
 * the field. The full list of such URLs is checked against the fetcher in
 * test/unit/safe-fetch/request-time-check.test.ts.
 */
describe('media URLs checked at request time', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let posts: ReturnType<typeof postsClient>;
  const json = { 'Content-Type': 'application/json' };

  const importUrl = (url: string) =>
    host.call(`/v1/workspaces/${tenant.workspaceId}/media`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      headers: json,
      body: JSON.stringify({ url, type: 'image' }),
    });
  const imagePost = (url: string) => tweet(tenant, { postType: 'image', media: [{ url, type: 'image' }] });

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Media URLs' });
    posts = postsClient(host, tenant);
  });
  afterAll(async () => {
    await host.stop();
  });

  it.each([
    ['port 8443', 'https://cdn.example.com:8443/a.png', /port 8443/],
    ['port 80 with https', 'https://cdn.example.com:80/a.png', /port 80/],
    ['port 22', 'https://cdn.example.com:22/a.png', /port 22/],
    ['http on its own port', 'http://cdn.example.com/a.png', /HTTPS/],
    ['the metadata address in decimal', 'https://2852039166/latest', /public/],
    ['a .localhost name', 'https://media.localhost/a.png', /localhost/],
  ])('a post with a media URL on %s is 400 naming media[0].url', async (_label, url, message) => {
    const body = await expectEnvelope(await posts.create(imagePost(url)), 400, 'INVALID_REQUEST');
    expect(body.details).toEqual({ 'media[0].url': [expect.stringMatching(message)] });
  });

  it('names the field of a content item too, and of a change', async () => {
    const thread = tweet(tenant, {
      postType: 'thread',
      content: [
        { text: 'one' },
        { text: 'two', media: [{ url: 'https://cdn.example.com:8443/a.png', type: 'image' }] },
      ],
    });
    const created = await expectEnvelope(await posts.create(thread), 400, 'INVALID_REQUEST');
    expect(Object.keys(created.details as object)).toEqual(['content[1].media[0].url']);

    const draft = await posts.create(tweet(tenant, { status: 'draft' }));
    const { id } = (await draft.json()) as { id: string };
    const changed = await expectEnvelope(
      await posts.patch(id, { media: [{ url: 'https://cdn.example.com:8443/a.png', type: 'image' }] }),
      400,
      'INVALID_REQUEST',
    );
    expect(Object.keys(changed.details as object)).toEqual(['media[0].url']);
  });

  it('an import of a URL on port 8443 is 400 naming url, and nothing is recorded', async () => {
    const body = await expectEnvelope(
      await importUrl('https://cdn.example.com:8443/a.png'),
      400,
      'INVALID_REQUEST',
    );
    expect(body.details).toEqual({ url: [expect.stringMatching(/port 8443/)] });
    const list = await host.call(`/v1/workspaces/${tenant.workspaceId}/media`, { apiKey: tenant.apiKey });
    expect(((await list.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('accepts port 443 written out, for posts and imports', async () => {
    expect((await posts.create(imagePost('https://cdn.example.com:443/a.png'))).status).toBe(201);
    expect((await importUrl('https://cdn.example.com:443/a.png')).status).toBe(202);
  });
});
