import * as z from 'zod';
import { isOk, readAnswer, type TikTokApi } from './api.js';
import { failed, failureOf, TikTokStepFailed } from './errors.js';

const CreatorInfo = z.object({
  creator_username: z.string().optional(),
  creator_nickname: z.string().optional(),
  creator_avatar_url: z.string().optional(),
  privacy_level_options: z.array(z.string()),
  comment_disabled: z.boolean().optional(),
  duet_disabled: z.boolean().optional(),
  stitch_disabled: z.boolean().optional(),
  max_video_post_duration_sec: z.number().optional(),
});
export type CreatorInfo = z.infer<typeof CreatorInfo>;

/**
 * `creator_info/query` (networks/tiktok.md §2): what this creator may post now (privacy levels,
 * interactions they turned off, the longest video). TikTok requires it before every Direct Post.
 */
export async function queryCreatorInfo(
  api: TikTokApi,
  accessToken: string,
  signal: AbortSignal,
): Promise<CreatorInfo> {
  const answer = await readAnswer(
    await api.call({ path: '/v2/post/publish/creator_info/query/', accessToken, signal }),
  );
  if (!isOk(answer)) throw new TikTokStepFailed(failureOf(answer, 'creator'));
  const parsed = CreatorInfo.safeParse(answer.data);
  if (!parsed.success) {
    throw new TikTokStepFailed(
      failed({
        failure: 'transient',
        code: 'PLATFORM_ERROR',
        message: 'TikTok answered the creator check unreadably.',
      }),
    );
  }
  return parsed.data;
}
