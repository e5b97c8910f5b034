import type { PostWarning } from '../../domain/posts.js';
import type { PublishOutcome } from '../../ports/connector.js';
import type { TikTokAnswer } from './api.js';
import { type FailedOutcome, failed } from './errors.js';

/**
 * TikTok's upload to the creator's inbox (Content Posting API, "Upload"; docs/networks.md):
 * the draft lands in the creator's TikTok inbox and they finish and post it in the app.
 */

export { TIKTOK_INBOX_SCOPE } from './options-schema.js';

/** The post failed because the account did not grant video.upload: reconnecting asks for it again. */
export const INBOX_SCOPE_MISSING = 'INBOX_SCOPE_MISSING';

/** A video draft carries no caption: the post's text stayed with us. */
export const TEXT_NOT_SENT_TO_INBOX = 'TEXT_NOT_SENT_TO_INBOX';

export const TEXT_NOT_SENT_WARNING: PostWarning = {
  code: TEXT_NOT_SENT_TO_INBOX,
  message:
    "TikTok takes no caption with a video sent to the creator's inbox: the post's text was not sent; the creator writes it in the TikTok app.",
};

/** TikTok's answer when the token lacks a scope the endpoint needs. */
export function scopeMissing(answer: TikTokAnswer): boolean {
  return answer.code === 'scope_not_authorized' || answer.code === 'scope_permission_missed';
}

/** The inbox upload refused for want of video.upload: permanent until the account is reconnected. */
export function inboxScopeMissing(rawCode: string): FailedOutcome {
  return failed(
    {
      failure: 'permanent',
      code: INBOX_SCOPE_MISSING,
      message:
        "TikTok refused the upload to the creator's inbox: the account did not grant video.upload. Reconnect the TikTok account (and accept the upload permission), then post again.",
    },
    rawCode,
  );
}

/** The draft is in the creator's inbox: a video's text was not sent with it. */
export function handedOver(
  kind: 'video' | 'photo',
  text: string,
): Extract<PublishOutcome, { kind: 'awaiting_creator' }> {
  const textLeftOut = kind === 'video' && text.trim().length > 0;
  return { kind: 'awaiting_creator', ...(textLeftOut && { warnings: [TEXT_NOT_SENT_WARNING] }) };
}
