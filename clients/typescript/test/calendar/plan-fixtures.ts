import type { DesiredPost, ServiceState } from '../../src/calendar/model.js';
import type { CreatePostBody, Post } from '../../src/types.js';

/** A post read as getPost answers it, with the externalId the service will return. */
export function postRead(overrides: Partial<Post> = {}): Post {
  return {
    id: 'pst_1',
    workspaceId: 'wks_1',
    accountId: 'acc_li',
    platform: 'linkedin',
    postType: 'text',
    status: 'scheduled',
    content: 'Spring collection next week.',
    media: [],
    scheduledAt: '2026-12-07T08:00:00.000Z',
    platformOptions: null,
    firstComment: null,
    link: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    publishedAt: null,
    platformPostId: null,
    platformPostUrl: null,
    warnings: [],
    attempts: 0,
    error: null,
    approval: null,
    externalId: null,
    ...overrides,
  };
}

/** A desired post as the expansion gives it. */
export function desiredPost(
  externalId: string,
  body: Partial<CreatePostBody> = {},
  extra: Partial<Omit<DesiredPost, 'body' | 'externalId'>> = {},
): DesiredPost {
  return {
    externalId,
    entryKey: externalId.split('/')[1] ?? externalId,
    body: {
      platform: 'linkedin',
      accountId: 'acc_li',
      postType: 'text',
      status: 'scheduled',
      content: 'Spring collection next week.',
      scheduledAt: '2026-12-07T08:00:00Z',
      ...body,
      externalId,
    },
    timeSource: 'fixed',
    ...extra,
  };
}

export function state(parts: Partial<ServiceState> = {}): ServiceState {
  return { managed: [], bound: [], others: [], ...parts };
}
