import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/calendar/diff.js';
import type { DesiredPost } from '../../src/calendar/model.js';
import { fieldsOfPost } from '../../src/calendar/post-fields.js';
import type { Post } from '../../src/types.js';
import { desiredPost, postRead, state } from './plan-fixtures.js';

/** The desired post a pulled file gives back for a post: its fields, status and time. */
function pulled(post: Post, externalId: string): DesiredPost {
  const reading = fieldsOfPost(post);
  return {
    externalId,
    entryKey: externalId.split('/')[1] ?? externalId,
    body: { ...reading.post, status: reading.status, scheduledAt: reading.scheduledAt, externalId },
    timeSource: 'fixed',
  };
}

describe('planChanges', () => {
  it('plans nothing for a pulled post planned again (round trip)', () => {
    // Prepare
    const post = postRead({
      externalId: 'acme/launch',
      media: [{ id: 'med_1', alt: 'Jacket' }],
      firstComment: {
        text: 'Link in comments',
        media: [],
        status: 'waiting',
        attempts: 0,
        platformCommentId: null,
        platformCommentUrl: null,
        publishedAt: null,
        error: null,
      },
      link: { url: 'https://example.com' },
    });

    // Act
    const items = planChanges([pulled(post, 'acme/launch')], state({ managed: [post] }));

    // Assess
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: 'unchanged', externalId: 'acme/launch', changedFields: [] });
    expect(items[0]?.patch).toBeUndefined();
  });

  it('plans exactly one edit, with only the changed field, when one entry changes', () => {
    // Prepare
    const kept = postRead({ id: 'pst_1', externalId: 'acme/a' });
    const edited = postRead({ id: 'pst_2', externalId: 'acme/b', scheduledAt: '2026-12-08T08:00:00.000Z' });
    const wantB = pulled(edited, 'acme/b');
    wantB.body.content = 'Now with a discount code.';

    // Act
    const items = planChanges([pulled(kept, 'acme/a'), wantB], state({ managed: [kept, edited] }));

    // Assess
    const changes = items.filter((item) => item.kind !== 'unchanged');
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      kind: 'edit',
      externalId: 'acme/b',
      patch: { content: 'Now with a discount code.' },
      changedFields: ['content'],
    });
    expect(Object.keys(changes[0]?.patch ?? {})).toEqual(['content']);
  });

  it('plans a reschedule when only the time differs', () => {
    const post = postRead({ externalId: 'acme/a' });
    const want = desiredPost('acme/a', { scheduledAt: '2026-12-09T08:00:00Z' });
    const [item] = planChanges([want], state({ managed: [post] }));
    expect(item).toMatchObject({ kind: 'reschedule', patch: { scheduledAt: '2026-12-09T08:00:00Z' }, post });
  });

  it('submits a draft as an edit carrying status and time', () => {
    const post = postRead({ externalId: 'acme/a', status: 'draft', scheduledAt: null });
    const [item] = planChanges([desiredPost('acme/a')], state({ managed: [post] }));
    expect(item).toMatchObject({
      kind: 'edit',
      patch: { status: 'scheduled', scheduledAt: '2026-12-07T08:00:00Z' },
      changedFields: ['status', 'scheduledAt'],
    });
  });

  it('removes what the entry no longer has (null for a first comment)', () => {
    const post = postRead({
      externalId: 'acme/a',
      firstComment: {
        text: 'Old comment',
        media: [],
        status: 'waiting',
        attempts: 0,
        platformCommentId: null,
        platformCommentUrl: null,
        publishedAt: null,
        error: null,
      },
    });
    const [item] = planChanges([desiredPost('acme/a')], state({ managed: [post] }));
    expect(item).toMatchObject({
      kind: 'edit',
      patch: { firstComment: null },
      changedFields: ['firstComment'],
    });
  });

  it('replaces a post whose account changes: a cancel of the old, then a create, both explained', () => {
    // Prepare
    const post = postRead({ id: 'pst_old', externalId: 'acme/a' });
    const want = desiredPost('acme/a', { accountId: 'acc_li2' });

    // Act
    const items = planChanges([want], state({ managed: [post] }));

    // Assess
    expect(items.map((item) => item.kind)).toEqual(['cancel', 'create']);
    expect(items[0]).toMatchObject({
      externalId: 'acme/a',
      post: { id: 'pst_old' },
      changedFields: ['accountId'],
    });
    expect(items[1]).toMatchObject({ externalId: 'acme/a', desired: want });
    expect(items[0]?.note).toContain('accountId cannot be changed');
    expect(items[1]?.note).toBe(items[0]?.note);
  });

  it('cancels the editable posts of the calendar no entry names, and leaves sent ones out', () => {
    // Prepare
    const dropped = postRead({ id: 'pst_1', externalId: 'acme/old' });
    const droppedDraft = postRead({
      id: 'pst_2',
      externalId: 'acme/idea',
      status: 'draft',
      scheduledAt: null,
    });
    const published = postRead({ id: 'pst_3', externalId: 'acme/last-week', status: 'published' });

    // Act
    const items = planChanges([], state({ managed: [dropped, droppedDraft, published] }));

    // Assess
    expect(items.map((item) => [item.kind, item.externalId])).toEqual([
      ['cancel', 'acme/old'],
      ['cancel', 'acme/idea'],
    ]);
  });

  it('leaves a sent post alone but says how it differs', () => {
    const post = postRead({ externalId: 'acme/a', status: 'published' });
    const [item] = planChanges(
      [desiredPost('acme/a', { content: 'Edited after the fact' })],
      state({ managed: [post] }),
    );
    expect(item).toMatchObject({ kind: 'unchanged', note: 'already published', changedFields: ['content'] });
    expect(item?.patch).toBeUndefined();
  });

  it('notes a post being sent', () => {
    const post = postRead({ externalId: 'acme/a', status: 'publishing' });
    const [item] = planChanges([desiredPost('acme/a')], state({ managed: [post] }));
    expect(item).toMatchObject({ kind: 'unchanged', note: 'being sent', changedFields: [] });
  });

  it("creates anew when the entry's post was cancelled or failed", () => {
    const cancelled = postRead({ id: 'pst_1', externalId: 'acme/a', status: 'cancelled' });
    const failed = postRead({ id: 'pst_2', externalId: 'acme/a', status: 'failed' });
    const items = planChanges([desiredPost('acme/a')], state({ managed: [cancelled, failed] }));
    expect(items.map((item) => item.kind)).toEqual(['create']);
  });

  it('matches an entry bound by postId to its post, whatever externalId the post has', () => {
    // Prepare: a pulled post that had no externalId.
    const post = postRead({ id: 'pst_9' });
    const want = { ...pulled(post, 'acme/pst_9'), postId: 'pst_9' };

    // Act
    const items = planChanges([want], state({ bound: [post] }));

    // Assess
    expect(items).toEqual([expect.objectContaining({ kind: 'unchanged', post })]);
  });

  it('creates an entry whose bound post is gone, saying so', () => {
    const want = { ...desiredPost('acme/x'), postId: 'pst_gone' };
    const [item] = planChanges([want], state());
    expect(item).toMatchObject({ kind: 'create', note: 'post pst_gone not found: created anew' });
  });

  it('matches an entry whose bound post was cancelled to the post made in its place, never making another', () => {
    const cancelled = postRead({ id: 'pst_old', status: 'cancelled' });
    const replacement = postRead({ id: 'pst_new', externalId: 'acme/x' });
    const want = { ...desiredPost('acme/x'), postId: 'pst_old' };
    const items = planChanges([want], state({ bound: [cancelled], managed: [replacement] }));
    expect(items.map((item) => [item.kind, item.post?.id])).toEqual([['unchanged', 'pst_new']]);
  });

  it('cancels a second live post with the same externalId, keeping the first created', () => {
    const first = postRead({ id: 'pst_1', externalId: 'acme/a', createdAt: '2026-11-01T00:00:00.000Z' });
    const second = postRead({ id: 'pst_2', externalId: 'acme/a', createdAt: '2026-11-02T00:00:00.000Z' });
    const items = planChanges([desiredPost('acme/a')], state({ managed: [second, first] }));
    expect(items.map((item) => [item.kind, item.post?.id])).toEqual([
      ['cancel', 'pst_2'],
      ['unchanged', 'pst_1'],
    ]);
  });

  it('orders by time, then externalId, timeless last', () => {
    // Prepare
    const desired = [
      desiredPost('acme/draft', { status: 'draft', scheduledAt: undefined }),
      desiredPost('acme/late', { scheduledAt: '2026-12-09T08:00:00Z' }),
      desiredPost('acme/b', { scheduledAt: '2026-12-07T08:00:00Z' }),
      desiredPost('acme/a', { scheduledAt: '2026-12-07T09:00:00+01:00' }),
    ];
    const dropped = postRead({
      id: 'pst_1',
      externalId: 'acme/gone',
      scheduledAt: '2026-12-08T08:00:00.000Z',
    });

    // Act
    const items = planChanges(desired, state({ managed: [dropped] }));

    // Assess
    expect(items.map((item) => item.externalId)).toEqual([
      'acme/a',
      'acme/b',
      'acme/gone',
      'acme/late',
      'acme/draft',
    ]);
  });
});
