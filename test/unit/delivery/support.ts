import type { Post } from '../../../shared/domain/posts.js';

/** A post as the store holds it, with the fields delivery looks at. */
export function aPost(overrides: Partial<Post> = {}): Post {
  return {
    postId: 'pst_01JD0000000000000000000000',
    tenantId: 'ten_01JD0000000000000000000000',
    workspaceId: 'wks_01JD0000000000000000000000',
    accountId: 'acc_01JD0000000000000000000000',
    platform: 'twitter',
    postType: 'text',
    status: 'queued',
    content: 'hello',
    media: [],
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
    attempts: 0,
    createdBy: 'agt_01JD0000000000000000000000',
    version: 1,
    ...overrides,
  };
}
