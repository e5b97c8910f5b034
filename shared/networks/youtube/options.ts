import { contentItems, type Post } from '../../domain/posts.js';
import type { DeliveryMedia } from '../../ports/connector.js';
import type { AfterPublishPlan } from './after-publish.js';
import { YOUTUBE_DEFAULT_PRIVACY, youtubeOptionsSchema } from './options-schema.js';
import { youtubeTitleAndDescription } from './rules.js';

/** What the session request sends: the `video` resource's snippet and status, and the notify flag. */
export interface YouTubeUploadMetadata {
  resource: {
    snippet: { title: string; description: string; tags?: string[]; categoryId?: string };
    status: { privacyStatus: string; selfDeclaredMadeForKids: boolean; publishAt?: string };
  };
  notifySubscribers?: boolean;
}

/** The post's text: a YouTube post has one part (its content string, or the first item's text). */
function textOf(post: Post): string {
  return contentItems(post)[0]?.text ?? '';
}

/**
 * The upload's metadata from the post's text and `platformOptions.youtube`, as the create path
 * checked them (rules.ts): the same title and description the rules saw. Read
 * through the schema again because they come back from storage; options that do not read are
 * reported rather than replaced by defaults, which would upload something the caller did not ask for.
 */
export function uploadMetadata(post: Post): YouTubeUploadMetadata | { invalid: true } {
  const parsed = youtubeOptionsSchema.safeParse(post.platformOptions?.youtube ?? {});
  if (!parsed.success) return { invalid: true };
  const options = parsed.data;
  const { title, description } = youtubeTitleAndDescription(textOf(post), options);
  return {
    resource: {
      snippet: {
        title,
        description,
        ...(options.tags && { tags: options.tags }),
        ...(options.categoryId && { categoryId: options.categoryId }),
      },
      status: {
        privacyStatus: options.privacyStatus ?? YOUTUBE_DEFAULT_PRIVACY,
        selfDeclaredMadeForKids: options.madeForKids ?? false,
        // Sent as UTC: YouTube's own format (YYYY-MM-DDThh:mm:ss.sZ), whatever offset the caller gave.
        ...(options.publishAt && { publishAt: new Date(options.publishAt).toISOString() }),
      },
    },
    ...(options.notifySubscribers !== undefined && { notifySubscribers: options.notifySubscribers }),
  };
}

/**
 * What is done after the upload (after-publish.ts): the custom thumbnail (the worker resolved it as
 * `optionMedia.thumbnail`), the playlist and the caption track. Options that do not read plan nothing: the upload
 * itself already refused them.
 */
export function afterPublishPlan(
  post: Post,
  optionMedia: Readonly<Record<string, DeliveryMedia>> | undefined,
): AfterPublishPlan {
  const parsed = youtubeOptionsSchema.safeParse(post.platformOptions?.youtube ?? {});
  if (!parsed.success) return {};
  const media = optionMedia?.thumbnail;
  return {
    ...(parsed.data.thumbnail && { thumbnail: media ? { media } : {} }),
    ...(parsed.data.playlistId && { playlistId: parsed.data.playlistId }),
    ...(parsed.data.captions && { captions: parsed.data.captions }),
  };
}
