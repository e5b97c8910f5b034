import type { DeliveryMedia, PublishOutcome } from '../../ports/connector.js';
import { BLUESKY_BLOB_REUSE_MS, BLUESKY_VIDEO_CHECK_SECONDS } from './limits.js';
import { checkVideo, type MediaContext, startVideo, uploadImage } from './media.js';
import { type Blob, type BlueskyProgress, writeProgress } from './progress.js';

/** An item's media, with their positions in the request's `media` list (the keys of their progress). */
export type PositionedMedia = readonly { position: number; media: DeliveryMedia }[];

export type EmbedStep =
  | { kind: 'embed'; embed?: Record<string, unknown> }
  | { kind: 'stop'; outcome: PublishOutcome };

/**
 * The embed of an item's media (research §2b–c): images as blobs on the PDS (reused from the
 * progress while young enough), or a video through the video service, handing back `pending`
 * while it is processed. No media: no embed.
 */
export async function mediaEmbed(
  context: MediaContext,
  media: PositionedMedia,
  progress: BlueskyProgress,
): Promise<EmbedStep> {
  const images: { image: Blob; alt: string }[] = [];
  for (const { position, media: item } of media) {
    const key = String(position);
    if (item.kind === 'video') {
      const job = progress.videos[key];
      const step = job ? await checkVideo(context, job.jobId) : await startVideo(context, item);
      if (step.kind === 'failed') return { kind: 'stop', outcome: step.outcome };
      if (step.kind === 'processing') {
        progress.videos[key] = { jobId: step.jobId };
        const outcome: PublishOutcome = {
          kind: 'pending',
          progress: writeProgress(progress),
          checkAfterSeconds: BLUESKY_VIDEO_CHECK_SECONDS,
          stage: 'media_processing',
        };
        return { kind: 'stop', outcome };
      }
      return {
        kind: 'embed',
        embed: { $type: 'app.bsky.embed.video', video: step.blob, ...(item.alt && { alt: item.alt }) },
      };
    }
    let blob = progress.blobs[key];
    if (!blob || context.now() - blob.at > BLUESKY_BLOB_REUSE_MS) {
      const uploaded = await uploadImage(context, item);
      if ('kind' in uploaded) return { kind: 'stop', outcome: uploaded };
      blob = { blob: uploaded, at: context.now() };
      progress.blobs[key] = blob;
    }
    // alt is required by the lexicon, and may be empty.
    images.push({ image: blob.blob, alt: item.alt ?? '' });
  }
  if (images.length > 0) return { kind: 'embed', embed: { $type: 'app.bsky.embed.images', images } };
  return { kind: 'embed' };
}
