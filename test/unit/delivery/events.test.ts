import { describe, expect, it } from 'vitest';
import { postEvents, stableEventId } from '../../../shared/domain/events.js';
import { WEBHOOK_EVENT_SCHEMAS } from '../../../shared/domain/webhooks/payloads.js';
import { aPost } from './support.js';

const types = (events: { type: string }[]) => events.map((event) => event.type);

describe('postEvents', () => {
  it('names each state change with its event', () => {
    expect(types(postEvents(undefined, aPost({ status: 'queued' })))).toEqual(['post.queued']);
    expect(
      types(postEvents(undefined, aPost({ status: 'scheduled', scheduledAt: '2030-02-01T00:00:00.000Z' }))),
    ).toEqual(['post.scheduled']);
    expect(types(postEvents(undefined, aPost({ status: 'pending_approval' })))).toEqual([
      'approval.requested',
    ]);
    expect(
      types(postEvents(aPost({ status: 'publishing' }), aPost({ status: 'published', version: 2 }))),
    ).toEqual(['post.published']);
  });

  it('a retry going back to queued, and a claim, are not events', () => {
    expect(postEvents(aPost({ status: 'publishing' }), aPost({ status: 'queued', version: 3 }))).toEqual([]);
    expect(postEvents(aPost({ status: 'queued' }), aPost({ status: 'publishing', version: 2 }))).toEqual([]);
  });

  it('a scheduled post coming due (claimed: scheduled → publishing) is post.queued, once, with status queued', () => {
    // Prepare
    const scheduledAt = '2030-02-01T00:00:00.000Z';
    const scheduled = aPost({ status: 'scheduled', scheduledAt });
    const claimed = aPost({ status: 'publishing', scheduledAt, version: 2, attempts: 1 });
    const backAfterLease = aPost({ status: 'queued', scheduledAt, version: 3, attempts: 1 });
    const claimedAgain = aPost({ status: 'publishing', scheduledAt, version: 4, attempts: 2 });

    // Act
    const events = postEvents(scheduled, claimed);

    // Assess
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'post.queued',
      createdAt: claimed.updatedAt,
      data: { postId: claimed.postId, status: 'queued', scheduledAt },
    });
    expect(postEvents(scheduled, claimed)[0]?.id).toBe(events[0]?.id);
    expect(postEvents(claimed, backAfterLease)).toEqual([]);
    expect(postEvents(backAfterLease, claimedAgain)).toEqual([]);
  });

  it("post.published carries the post's warnings, in a body the webhook schema accepts; no further event when the id comes later", () => {
    // Prepare
    const warnings = [{ code: 'PLATFORM_VISIBILITY_CHANGED', message: 'YouTube made the video private.' }];
    const published = aPost({
      status: 'published',
      version: 2,
      publishedAt: '2030-01-01T12:00:00.000Z',
      warnings: [{ code: 'PLATFORM_POST_ID_PENDING', message: 'to come' }],
    });

    // Act
    const [event] = postEvents(
      aPost({ status: 'publishing' }),
      aPost({ status: 'published', version: 2, publishedAt: '2030-01-01T12:00:00.000Z', warnings }),
    );
    const named = postEvents(published, { ...published, version: 3, platformPostId: '735', warnings: [] });

    // Assess
    expect(event?.data).toMatchObject({ status: 'published', warnings });
    const { tenantId: _routing, ...body } = event ?? { tenantId: '' };
    expect(WEBHOOK_EVENT_SCHEMAS['post.published'].parse(body).data.warnings).toEqual(warnings);
    expect(named).toEqual([]);
  });

  it('post.failed carries the error detail of the interface', () => {
    const error = {
      origin: 'platform' as const,
      code: 'RATE_LIMITED',
      message: 'm',
      platformRawCode: '429',
      retryable: true,
    };
    const [event] = postEvents(
      aPost({ status: 'publishing' }),
      aPost({ status: 'failed', version: 2, error }),
    );
    expect(event?.data).toMatchObject({ postId: aPost().postId, status: 'failed', error });
  });

  it("post.awaiting_creator says a post went to the creator's inbox, with its warnings and no id", () => {
    const warnings = [{ code: 'TEXT_NOT_SENT_TO_INBOX', message: 'The text was not sent.' }];

    const events = postEvents(
      aPost({ status: 'publishing' }),
      aPost({ status: 'awaiting_creator', version: 2, warnings }),
    );

    expect(events.map((event) => event.type)).toEqual(['post.awaiting_creator']);
    expect(events[0]?.data).toMatchObject({ postId: aPost().postId, status: 'awaiting_creator', warnings });
    expect(events[0]?.data).not.toHaveProperty('platformPostId');
    const { tenantId: _routing, ...body } = events[0] ?? { tenantId: '' };
    expect(WEBHOOK_EVENT_SCHEMAS['post.awaiting_creator'].parse(body).data.status).toBe('awaiting_creator');
  });

  it('approval.decided carries the decision, reviewer and reason', () => {
    const before = aPost({
      status: 'pending_approval',
      approval: { status: 'pending', requestedAt: '2030-01-01T00:00:00.000Z' },
    });
    const after = aPost({
      status: 'rejected',
      version: 2,
      approval: {
        status: 'rejected',
        requestedAt: before.approval?.requestedAt ?? '',
        decidedAt: '2030-01-01T01:00:00.000Z',
        decidedBy: 'agt_1',
        reason: 'no',
      },
    });
    const [event] = postEvents(before, after);
    expect(event).toMatchObject({
      type: 'approval.decided',
      data: { decision: 'rejected', reviewer: 'agt_1', reason: 'no' },
    });
  });

  it('gives the same id to the same change however often it is derived, and another id to another change', () => {
    const before = aPost({ status: 'publishing' });
    const after = aPost({ status: 'published', version: 2, updatedAt: '2030-01-01T00:00:05.000Z' });
    const first = postEvents(before, after)[0]?.id;
    expect(postEvents(before, after)[0]?.id).toBe(first);
    expect(first).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(postEvents(before, { ...after, version: 3 })[0]?.id).not.toBe(first);
  });

  it('event ids sort by the time of the change', () => {
    const early = stableEventId(Date.UTC(2030, 0, 1), 'pst_1', '1', 'post.queued');
    const late = stableEventId(Date.UTC(2030, 0, 2), 'pst_0', '1', 'post.queued');
    expect([late, early].sort()).toEqual([early, late]);
  });
});
