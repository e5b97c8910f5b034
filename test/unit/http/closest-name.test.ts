import { describe, expect, it } from 'vitest';
import { closestName, unknownNameMessage } from '../../../shared/http/closest-name.js';

describe('closestName', () => {
  const tool = ['workspaceId', 'postId', 'idempotencyKey', 'body'];

  it('matches a name that differs only in case and separators, however long', () => {
    expect(closestName('post_id', tool)).toBe('postId');
    expect(closestName('workspace_id', tool)).toBe('workspaceId');
    expect(closestName('Idempotency-Key', tool)).toBe('idempotencyKey');
  });

  it('matches a typo within a third of the name', () => {
    expect(closestName('contnet', ['platform', 'content', 'media'])).toBe('content');
    expect(closestName('scheduleAt', ['scheduledAt', 'status'])).toBe('scheduledAt');
  });

  it('prefers the nearest of several close names', () => {
    expect(closestName('medias', ['media', 'mediaIds'])).toBe('media');
  });

  it('suggests nothing when no name is close', () => {
    expect(closestName('colour', ['platform', 'content', 'media'])).toBeUndefined();
    expect(closestName('x', ['body', 'y'])).toBeUndefined();
    expect(closestName('ab', ['body'])).toBeUndefined();
    expect(closestName('anything', [])).toBeUndefined();
  });
});

describe('unknownNameMessage', () => {
  it('asks "did you mean" with the closest name', () => {
    expect(unknownNameMessage('argument', 'post_id', ['workspaceId', 'postId'])).toBe(
      'Unknown argument `post_id`; did you mean `postId`?',
    );
  });

  it('lists the valid names when none is close', () => {
    expect(unknownNameMessage('field', 'colour', ['platform', 'content'])).toBe(
      'Unknown field `colour`; expected one of `platform`, `content`.',
    );
  });

  it('says none is taken when there is nothing to choose', () => {
    expect(unknownNameMessage('argument', 'colour', [])).toBe(
      'Unknown argument `colour`; none is taken here.',
    );
  });
});
