import * as z from 'zod';
import { readJson, type YouTubeApi } from './api.js';
import { failureOf, readGoogleError, YouTubeStepFailed } from './errors.js';

const VideoStatusList = z.object({
  items: z
    .array(
      z.object({
        id: z.string(),
        status: z
          .object({
            uploadStatus: z.string().optional(),
            failureReason: z.string().optional(),
            rejectionReason: z.string().optional(),
            privacyStatus: z.string().optional(),
          })
          .optional(),
        processingDetails: z.object({ processingStatus: z.string().optional() }).optional(),
      }),
    )
    .default([]),
});

/** Where YouTube is with an uploaded video (youtube.md §1 "After upload"). */
export type VideoState =
  | { kind: 'processing' }
  /** `privacyStatus`: the visibility YouTube gave the video, when it said. */
  | { kind: 'processed'; privacyStatus?: string }
  | { kind: 'failed'; reason?: string }
  | { kind: 'rejected'; reason?: string }
  | { kind: 'gone' };

/**
 * `videos?part=status,processingDetails&id=` (1 unit). `processed` is done; `uploaded` with
 * processing still running (or not started) is processing; a `failed` processing status without
 * an upload status that says so counts as failed too.
 */
export async function videoState(
  context: { api: YouTubeApi; apiUrl: string; accessToken: string; signal: AbortSignal; now: () => number },
  videoId: string,
): Promise<VideoState> {
  const response = await context.api({
    method: 'GET',
    url: `${context.apiUrl}/videos`,
    accessToken: context.accessToken,
    query: { part: 'status,processingDetails', id: videoId },
    signal: context.signal,
  });
  if (!response.ok) {
    throw new YouTubeStepFailed(failureOf(await readGoogleError(response), 'status', context.now()));
  }
  const parsed = VideoStatusList.safeParse(await readJson(response));
  if (!parsed.success) {
    throw new YouTubeStepFailed({
      kind: 'failed',
      failure: 'transient',
      code: 'PLATFORM_ERROR',
      message: 'YouTube answered the processing check unreadably.',
    });
  }
  const video = parsed.data.items.find((item) => item.id === videoId);
  if (!video) return { kind: 'gone' };
  const upload = video.status?.uploadStatus;
  const processing = video.processingDetails?.processingStatus;
  if (upload === 'processed') {
    const privacyStatus = video.status?.privacyStatus;
    return { kind: 'processed', ...(privacyStatus && { privacyStatus }) };
  }
  if (upload === 'rejected')
    return {
      kind: 'rejected',
      ...(video.status?.rejectionReason && { reason: video.status.rejectionReason }),
    };
  if (upload === 'failed' || processing === 'failed' || processing === 'terminated') {
    const reason = video.status?.failureReason ?? processing;
    return { kind: 'failed', ...(reason && { reason }) };
  }
  if (upload === 'deleted') return { kind: 'gone' };
  return { kind: 'processing' };
}
