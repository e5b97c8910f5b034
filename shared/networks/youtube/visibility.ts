import type { PostWarning } from '../../domain/posts.js';
import type { YouTubeUploadMetadata } from './options.js';

/**
 * YouTube gave the video another visibility than the one asked: uploads through an API project
 * that has not passed YouTube's compliance audit (created after 28 July 2020) are locked private
 * (videos.insert reference; docs/networks.md "Unaudited projects"). The video is published; the
 * post says what it is.
 */
function visibilityChanged(asked: string, given: string): PostWarning {
  return {
    code: 'PLATFORM_VISIBILITY_CHANGED',
    message: `YouTube made the video ${given} although ${asked} was asked. Uploads through a Google Cloud project that has not passed YouTube's API audit are locked private; the channel's owner can change it in YouTube Studio once the project is audited.`,
  };
}

/** A scheduled video (status.publishAt) is published, and private until YouTube makes it public. */
function privateUntil(publishAt: string): PostWarning {
  return {
    code: 'PRIVATE_UNTIL_PUBLISH_AT',
    message: `The video is on YouTube but stays private until ${publishAt}, when YouTube makes it public (its scheduled publishing).`,
  };
}

/**
 * What the caller should know of the video's visibility once processed (`given`: what YouTube
 * says it is). A scheduled video is private until publishAt and public after it: neither is a
 * change of visibility.
 */
export function visibilityWarnings(
  metadata: YouTubeUploadMetadata,
  given: string | undefined,
  nowMs: number,
): PostWarning[] {
  const asked = metadata.resource.status.privacyStatus;
  const publishAt = metadata.resource.status.publishAt;
  if (publishAt) {
    const ahead = Date.parse(publishAt) > nowMs;
    if (ahead && (given === undefined || given === 'private')) return [privateUntil(publishAt)];
    if (!ahead && given === 'public') return [];
  }
  return given && given !== asked ? [visibilityChanged(asked, given)] : [];
}
