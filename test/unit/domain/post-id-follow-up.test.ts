import { describe, expect, it } from 'vitest';
import { POST_ID_PENDING, POST_ID_UNAVAILABLE } from '../../../shared/domain/post-id-follow-up.js';

describe('the warnings of a post whose network names it late', () => {
  it("keep their codes and say, in the network's own words, why the id is late", () => {
    expect(POST_ID_PENDING).toEqual({
      code: 'PLATFORM_POST_ID_PENDING',
      message:
        'The network published the post but has not given its id yet (TikTok names a public post only once its moderation approves it, sometimes hours later). The service keeps asking and fills in platformPostId and platformPostUrl when it comes.',
    });
    expect(POST_ID_UNAVAILABLE).toEqual({
      code: 'PLATFORM_POST_ID_UNAVAILABLE',
      message:
        'The network published the post but gave no id for it within three days (on TikTok: moderation did not approve it for public viewing, or the creator changed who can see it). The post may still be on the account.',
    });
  });
});
