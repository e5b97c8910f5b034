import * as z from 'zod';
import { isOk, readAnswer, type TikTokApi } from './api.js';
import { failed, failureOf, TikTokStepFailed } from './errors.js';

const Status = z.object({
  status: z.string(),
  fail_reason: z.string().optional(),
  // TikTok spells it so (networks/tiktok.md §5). int64: a safe one arrives as a number, a larger
  // one as its digits (readAnswer); either way the id is its decimal digits.
  publicaly_available_post_id: z
    .array(z.union([z.string().regex(/^[0-9]+$/), z.number().int().nonnegative()]))
    .optional(),
  uploaded_bytes: z.number().optional(),
});

export interface PublishStatus {
  status: 'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'SEND_TO_USER_INBOX' | 'PUBLISH_COMPLETE' | 'FAILED';
  failReason?: string;
  postId?: string;
  uploadedBytes?: number;
}

const KNOWN = [
  'PROCESSING_UPLOAD',
  'PROCESSING_DOWNLOAD',
  'SEND_TO_USER_INBOX',
  'PUBLISH_COMPLETE',
  'FAILED',
];

/** `status/fetch` of a publish id: where TikTok is with the post. */
export async function fetchStatus(
  api: TikTokApi,
  accessToken: string,
  publishId: string,
  signal: AbortSignal,
): Promise<PublishStatus> {
  const answer = await readAnswer(
    await api.call({
      path: '/v2/post/publish/status/fetch/',
      accessToken,
      json: { publish_id: publishId },
      signal,
    }),
  );
  if (!isOk(answer)) throw new TikTokStepFailed(failureOf(answer, 'status'));
  const parsed = Status.safeParse(answer.data);
  if (!parsed.success) {
    throw new TikTokStepFailed(
      failed({
        failure: 'transient',
        code: 'PLATFORM_ERROR',
        message: 'TikTok answered the status check unreadably.',
      }),
    );
  }
  const data = parsed.data;
  const postId = data.publicaly_available_post_id?.[0];
  return {
    // A state TikTok may add later is treated as still processing.
    status: (KNOWN.includes(data.status) ? data.status : 'PROCESSING_UPLOAD') as PublishStatus['status'],
    ...(data.fail_reason && { failReason: data.fail_reason }),
    ...(postId !== undefined && { postId: String(postId) }),
    ...(data.uploaded_bytes !== undefined && { uploadedBytes: data.uploaded_bytes }),
  };
}
