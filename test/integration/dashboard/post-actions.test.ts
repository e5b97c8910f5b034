import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { postsClient, seedMedia, tweet } from '../../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

// 20 s into a minute of the present; the clock is ours, so "the future" is fixed.
const NOW = Math.floor(Date.now() / 60_000) * 60_000 + 20_000;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** A `datetime-local` value, in UTC as the forms read it. */
const localInput = (ms: number) => iso(ms).slice(0, 16);
const wholeMinute = (ms: number) => `${localInput(ms)}:00.000Z`;

/**
 * A post's page as a place to act, over real HTTP: edit a draft and schedule it, reschedule,
 * cancel, each through the API's own operation (updatePost, cancelPost) and its rules; a refusal is
 * shown on the page with what was typed; a viewer sees no form and changes nothing.
 */
describe('dashboard: acting on a post', () => {
  const clock = fixedClock(NOW);
  let host: TestHost;
  let tenant: BootstrapResult;
  let admin: DashboardClient;
  let viewer: DashboardClient;
  let posts: ReturnType<typeof postsClient>;

  const create = async (body: Record<string, unknown>) => {
    const response = await posts.create(tweet(tenant, body));
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const read = async (postId: string) =>
    (await (await posts.get(postId)).json()) as {
      status: string;
      content: unknown;
      scheduledAt: string | null;
    };
  const pageOf = (postId: string) => `/workspaces/${tenant.workspaceId}/posts/${postId}`;

  beforeAll(async () => {
    host = await startTestHost({ clock });
    tenant = await host.admin.bootstrap({ name: 'Post actions', planTier: 'enterprise' });
    posts = postsClient(host, tenant);
    const inWorkspace = { tenantId: tenant.tenantId, workspaceIds: [tenant.workspaceId] };
    ({ client: admin } = await signedInAs(host, { ...inWorkspace, role: 'workspace_admin' }));
    ({ client: viewer } = await signedInAs(host, { ...inWorkspace, role: 'viewer' }));
  });
  afterAll(() => host?.stop());

  it("shows a draft's page with Edit and Cancel, and the account's handle", async () => {
    // Arrange
    const postId = await create({ status: 'draft', content: 'first words' });

    // Act
    const shown = await admin.get(pageOf(postId));

    // Assess
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('<h2 id="edit-heading">Edit</h2>');
    expect(shown.html).toMatch(/<textarea id="field-content" name="content"[^>]*>first words<\/textarea>/);
    expect(shown.html).toContain('<button type="submit" class="danger">Cancel post</button>');
    expect(shown.html).not.toContain(`<code>${tenant.accounts.twitter}</code>`);
  });

  it('edits a draft and schedules it in one save', async () => {
    // Arrange
    const postId = await create({ status: 'draft', content: 'before' });

    // Act
    const saved = await admin.post(`${pageOf(postId)}/edit`, {
      content: 'after',
      scheduledAt: localInput(NOW + 2 * HOUR),
      status: 'scheduled',
    });
    const landed = await admin.get(String(saved.location));

    // Assess
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/dashboard${pageOf(postId)}?done=saved`);
    expect(landed.html).toContain('Post saved.');
    const post = await read(postId);
    expect(post).toMatchObject({
      status: 'scheduled',
      content: 'after',
      scheduledAt: wholeMinute(NOW + 2 * HOUR),
    });
  });

  it("edits each part of a thread, keeping each part's media and alt text", async () => {
    // Arrange
    const mediaId = await seedMedia(host, tenant, 'image/png');
    const postId = await create({
      status: 'draft',
      postType: 'thread',
      content: [{ text: 'one', media: [{ id: mediaId, alt: 'A quay at dawn' }] }, { text: 'two' }],
    });
    const shown = await admin.get(pageOf(postId));

    // Act
    const saved = await admin.post(`${pageOf(postId)}/edit`, {
      'content[0].text': 'one, edited',
      'content[1].text': 'two, edited',
      scheduledAt: '',
      status: '',
    });

    // Assess
    expect(shown.html).toMatch(/<label for="field-content-0--text">Part 1<\/label>/);
    expect(shown.html).toMatch(
      /<textarea id="field-content-1--text" name="content\[1\]\.text"[^>]*>two<\/textarea>/,
    );
    expect(shown.html).toContain(`Its media stay as they are: ${mediaId} (alt: A quay at dawn).`);
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/dashboard${pageOf(postId)}?done=saved`);
    expect((await read(postId)).content).toEqual([
      { text: 'one, edited', media: [{ id: mediaId, alt: 'A quay at dawn' }] },
      { text: 'two, edited' },
    ]);
  });

  it("shows the API's refusal of a part beside that part's field, keeping every part as typed", async () => {
    // Arrange
    const postId = await create({
      status: 'draft',
      postType: 'thread',
      content: [{ text: 'kept one' }, { text: 'kept two' }],
    });

    // Act
    const refused = await admin.post(`${pageOf(postId)}/edit`, {
      'content[0].text': 'typed one',
      'content[1].text': '',
      scheduledAt: '',
      status: '',
    });

    // Assess
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('class="error-summary"');
    expect(refused.html).toContain('<a href="#field-content-1--text">');
    expect(refused.html).toMatch(
      /<textarea id="field-content-1--text" name="content\[1\]\.text" rows="3" aria-invalid="true" aria-describedby="field-content-1--text-error"><\/textarea><p class="field-error" id="field-content-1--text-error">A content item needs text or media\.<\/p>/,
    );
    expect(refused.html).toContain('>typed one</textarea>');
    expect((await read(postId)).content).toEqual([{ text: 'kept one' }, { text: 'kept two' }]);
  });

  it("shows a network rule broken by a part's media beside that part's field", async () => {
    // Arrange: X takes at most four images per post of a thread; a draft is not checked until submitted.
    const images = await Promise.all([1, 2, 3, 4, 5].map(() => seedMedia(host, tenant, 'image/png')));
    const postId = await create({
      status: 'draft',
      postType: 'thread',
      content: [{ text: 'five images', media: images.map((id) => ({ id, alt: 'a pier' })) }, { text: 'two' }],
    });

    // Act
    const refused = await admin.post(`${pageOf(postId)}/edit`, {
      'content[0].text': 'five images',
      'content[1].text': 'two',
      scheduledAt: localInput(NOW + 2 * HOUR),
      status: 'scheduled',
    });

    // Assess
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('<a href="#field-content-0--text">');
    expect(refused.html).toMatch(
      /<textarea id="field-content-0--text" name="content\[0\]\.text" rows="3" aria-invalid="true" aria-describedby="field-content-0--text-error">five images<\/textarea><p class="field-error" id="field-content-0--text-error">media: [^<]+<\/p>/,
    );
    expect((await read(postId)).status).toBe('draft');
  });

  it('reschedules a scheduled post', async () => {
    // Arrange
    const postId = await create({ status: 'scheduled', scheduledAt: iso(NOW + HOUR) });

    // Act
    const moved = await admin.post(`${pageOf(postId)}/reschedule`, {
      scheduledAt: localInput(NOW + 5 * HOUR),
    });

    // Assess
    expect(moved.status).toBe(303);
    expect(moved.location).toBe(`/dashboard${pageOf(postId)}?done=rescheduled`);
    expect((await read(postId)).scheduledAt).toBe(wholeMinute(NOW + 5 * HOUR));
  });

  it("shows the operation's refusal of a time in the past on the page, keeping what was typed", async () => {
    // Arrange
    const postId = await create({ status: 'scheduled', scheduledAt: iso(NOW + HOUR), content: 'keep me' });

    // Act
    const refused = await admin.post(`${pageOf(postId)}/edit`, {
      content: 'typed but refused',
      scheduledAt: localInput(NOW - HOUR),
      status: '',
    });

    // Assess
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('class="error-summary"');
    expect(refused.html).toContain('>typed but refused</textarea>');
    expect(await read(postId)).toMatchObject({ content: 'keep me', scheduledAt: iso(NOW + HOUR) });
  });

  it('cancels a post, which then offers no action', async () => {
    // Arrange
    const postId = await create({ status: 'scheduled', scheduledAt: iso(NOW + HOUR) });

    // Act
    const cancelled = await admin.post(`${pageOf(postId)}/cancel`);
    const landed = await admin.get(String(cancelled.location));

    // Assess
    expect(cancelled.status).toBe(303);
    expect((await read(postId)).status).toBe('cancelled');
    expect(landed.html).toContain('Post cancelled.');
    expect(landed.html).not.toContain('Cancel post</button>');
    expect(landed.html).not.toContain('id="edit-heading"');
  });

  it('shows a viewer no form and refuses their changes', async () => {
    // Arrange
    const postId = await create({ status: 'scheduled', scheduledAt: iso(NOW + HOUR) });

    // Act
    const shown = await viewer.get(pageOf(postId));
    const refused = await viewer.post(`${pageOf(postId)}/cancel`);

    // Assess
    expect(shown.status).toBe(200);
    expect(shown.html).not.toContain('id="edit-heading"');
    expect(shown.html).not.toContain('Cancel post</button>');
    expect(refused.status).toBe(403);
    expect((await read(postId)).status).toBe('scheduled');
  });

  it('answers 404 to an action on a post of another workspace', async () => {
    // Arrange
    const other = await host.admin.bootstrap({ name: 'Elsewhere', planTier: 'enterprise' });
    const response = await postsClient(host, other).create(tweet(other, { status: 'draft' }));
    const foreignId = ((await response.json()) as { id: string }).id;

    // Act
    const refused = await admin.post(`${pageOf(foreignId)}/cancel`);

    // Assess
    expect(refused.status).toBe(404);
    const foreign = await postsClient(host, other).get(foreignId);
    expect(((await foreign.json()) as { status: string }).status).toBe('draft');
  });
});
