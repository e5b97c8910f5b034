import { describe, expect, it } from 'vitest';
import type { Post } from '../../../shared/domain/posts.js';
import { makeMemorySandboxLedger, makeSandboxConnector } from '../../../shared/networks/sandbox/index.js';
import { tiktokSandbox } from '../../../shared/networks/tiktok/sandbox.js';
import type { PublishRequest } from '../../../shared/ports/connector.js';

const AT = '2026-03-01T12:00:00.000Z';

function aTikTokPost(tiktok: Record<string, unknown>): Post {
  return {
    postId: 'pst_inbox',
    tenantId: 'ten_1',
    workspaceId: 'ws_1',
    accountId: 'acc_tiktok',
    platform: 'tiktok',
    postType: 'video',
    status: 'publishing',
    content: 'A draft',
    media: [{ url: 'https://media.example.com/a.mp4', type: 'video' }],
    platformOptions: { tiktok } as Post['platformOptions'],
    createdAt: AT,
    updatedAt: AT,
    attempts: 0,
    createdBy: 'agt_1',
    version: 1,
  };
}

function aRequest(post: Post): PublishRequest {
  return {
    post,
    account: {
      accountId: 'acc_tiktok',
      tenantId: 'ten_1',
      workspaceId: 'ws_1',
      platform: 'tiktok',
      displayName: 'Acme',
      handle: '@acme',
      status: 'connected',
      sandbox: true,
      connectedAt: AT,
      createdAt: AT,
    },
    attempt: 1,
    clientReference: post.postId,
    media: [{ kind: 'video', url: 'https://media.example.com/a.mp4' }],
    signal: new AbortController().signal,
  };
}

describe("TikTok in the sandbox: mode inbox hands the post to the creator's inbox", () => {
  it('says so from the options: inbox yes; direct, absent or unreadable no', () => {
    expect(tiktokSandbox.awaitsCreator?.({ mode: 'inbox' })).toBe(true);
    expect(tiktokSandbox.awaitsCreator?.({ mode: 'direct', privacyLevel: 'SELF_ONLY' })).toBe(false);
    expect(tiktokSandbox.awaitsCreator?.(undefined)).toBe(false);
    expect(tiktokSandbox.awaitsCreator?.({ mode: 'elsewhere' })).toBe(false);
  });

  it('answers awaiting_creator for an inbox post and published for a direct one', async () => {
    const connector = makeSandboxConnector({
      ledger: makeMemorySandboxLedger(),
      latencyMs: { min: 0, max: 0 },
      sleep: async () => undefined,
      now: () => Date.parse(AT),
    });

    const inbox = await connector.publish(aRequest(aTikTokPost({ mode: 'inbox' })));
    const direct = await connector.publish(
      aRequest({ ...aTikTokPost({ privacyLevel: 'SELF_ONLY' }), postId: 'pst_direct' }),
    );

    expect(inbox.kind).toBe('awaiting_creator');
    expect(direct.kind).toBe('published');
  });
});
