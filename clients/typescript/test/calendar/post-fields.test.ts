import { describe, expect, it } from 'vitest';
import { changedFields, fieldsOfPost, readingOfBody, sameFields } from '../../src/calendar/post-fields.js';
import type { CreatePostBody } from '../../src/types.js';
import { postRead } from './plan-fixtures.js';

describe('fieldsOfPost', () => {
  it('keeps what a create takes and drops delivery bookkeeping', () => {
    // Prepare
    const post = postRead({
      media: [{ id: 'med_1', alt: 'A jacket', userTags: [] }],
      firstComment: {
        text: 'Sign up: https://example.com',
        media: [],
        status: 'published',
        attempts: 1,
        platformCommentId: 'urn:li:comment:1',
        platformCommentUrl: 'https://linkedin.example/c/1',
        publishedAt: '2026-12-07T08:00:05.000Z',
        error: null,
      },
      link: { url: 'https://example.com/spring', title: 'Spring' },
      platformOptions: {},
    });

    // Act
    const reading = fieldsOfPost(post);

    // Assess
    expect(reading).toEqual({
      status: 'scheduled',
      scheduledAt: '2026-12-07T08:00:00.000Z',
      post: {
        platform: 'linkedin',
        accountId: 'acc_li',
        postType: 'text',
        content: 'Spring collection next week.',
        media: [{ id: 'med_1', alt: 'A jacket' }],
        firstComment: { text: 'Sign up: https://example.com' },
        link: { url: 'https://example.com/spring', title: 'Spring' },
      },
    });
  });

  it('reads a post awaiting approval with a time as scheduled, and a draft as draft', () => {
    expect(fieldsOfPost(postRead({ status: 'pending_approval' })).status).toBe('scheduled');
    expect(fieldsOfPost(postRead({ status: 'draft', scheduledAt: null }))).toMatchObject({ status: 'draft' });
    expect(fieldsOfPost(postRead({ status: 'draft', scheduledAt: null })).scheduledAt).toBeUndefined();
  });

  it('keeps thread parts with their media as create takes them', () => {
    const post = postRead({
      postType: 'thread',
      content: [
        { text: 'One' },
        { text: 'Two', media: [{ url: 'https://cdn.example/a.png', type: 'image' }] },
        { media: [] },
      ],
    });
    expect(fieldsOfPost(post).post.content).toEqual([
      { text: 'One' },
      { text: 'Two', media: [{ url: 'https://cdn.example/a.png', type: 'image' }] },
      {},
    ]);
  });
});

describe('comparing a desired body with a post', () => {
  it('finds nothing changed in the body a post read stands for', () => {
    // Prepare
    const post = postRead({
      firstComment: null,
      media: [{ id: 'med_1' }],
      platformOptions: { linkedin: { visibility: 'PUBLIC' } },
    });
    const reading = fieldsOfPost(post);
    const body: CreatePostBody = {
      ...reading.post,
      status: reading.status,
      scheduledAt: reading.scheduledAt,
    };

    // Act, Assess
    expect(changedFields(body, post)).toEqual([]);
  });

  it('treats absent, null, [] and {} alike, ignores key order, and compares times as instants', () => {
    // Prepare: the read says the same as the body, spelt otherwise.
    const post = postRead({
      platform: 'twitter',
      accountId: 'acc_x',
      media: [],
      platformOptions: null,
      link: null,
    });
    const body: CreatePostBody = {
      scheduledAt: '2026-12-07T09:00:00+01:00',
      content: 'Spring collection next week.',
      status: 'scheduled',
      postType: 'text',
      accountId: 'acc_x',
      platform: 'x',
      platformOptions: {},
      firstComment: null,
    };

    // Act, Assess
    expect(changedFields(body, post)).toEqual([]);
  });

  it('sees options under x as the same options under twitter', () => {
    const post = postRead({
      platform: 'twitter',
      platformOptions: { twitter: { replySettings: 'following' } },
    });
    const body: CreatePostBody = {
      ...fieldsOfPost(post).post,
      platformOptions: { x: { replySettings: 'following' } },
      status: 'scheduled',
      scheduledAt: '2026-12-07T08:00:00Z',
    };
    expect(changedFields(body, post)).toEqual([]);
  });

  it('names each field that differs, in a fixed order', () => {
    // Prepare
    const post = postRead({ firstComment: null });
    const body: CreatePostBody = {
      platform: 'linkedin',
      accountId: 'acc_li',
      postType: 'text',
      status: 'draft',
      content: 'Spring collection next month.',
      firstComment: { text: 'More soon' },
      scheduledAt: '2026-12-08T08:00:00Z',
    };

    // Act, Assess
    expect(changedFields(body, post)).toEqual(['status', 'scheduledAt', 'content', 'firstComment']);
  });

  it('tells a media alt text apart', () => {
    const a = readingOfBody({
      platform: 'linkedin',
      accountId: 'acc_li',
      postType: 'image',
      status: 'draft',
      content: 'x',
      media: [{ id: 'med_1', alt: 'one' }],
    });
    const b = readingOfBody({
      platform: 'linkedin',
      accountId: 'acc_li',
      postType: 'image',
      status: 'draft',
      content: 'x',
      media: [{ alt: 'one', id: 'med_1' }],
    });
    const c = readingOfBody({
      platform: 'linkedin',
      accountId: 'acc_li',
      postType: 'image',
      status: 'draft',
      content: 'x',
      media: [{ id: 'med_1', alt: 'two' }],
    });
    expect(sameFields(a, b)).toBe(true);
    expect(sameFields(a, c)).toBe(false);
  });
});
