import { authorize, charge, isReply } from './api-auth.js';
import { googleError, type Reply } from './http.js';
import { type Handler, header, UPLOAD_SCOPES } from './route.js';
import { FakeYouTubeStore } from './store.js';

/** thumbnails.set: "Maximum file size: 2MB" (the v3 reference; the newer REST pages say 50 MB). */
export const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;
/** "Accepted Media MIME types: image/jpeg, image/png, application/octet-stream". */
const THUMBNAIL_TYPES = ['image/jpeg', 'image/png', 'application/octet-stream'];

/** What the bytes are, by their first bytes: a JPEG or a PNG, else nothing YouTube takes. */
function imageKind(bytes: Buffer): 'jpeg' | 'png' | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  return undefined;
}

function refused(reason: string, message: string, status = 400): Reply {
  return googleError(status, reason, message, 'youtube.thumbnail');
}

/**
 * POST /upload/youtube/v3/thumbnails/set?videoId=…&uploadType=media, the image as the body
 * (thumbnails.set reference): the upload scope is enough; about 50 units. Refusals as the
 * reference lists them: 404 videoNotFound (not the token's channel's), 403 forbidden for a channel
 * not allowed custom thumbnails, 400 mediaBodyRequired (no body), 400 invalidImage (a type or bytes
 * that are not a JPEG or PNG). Over 2 MB the reference names no code: this fake answers 413
 * mediaTooLarge, as Google's upload endpoints do for a body over a method's limit.
 * Setting it again replaces the image (idempotent).
 */
export const thumbnailsSet: Handler = (context) => {
  const token = authorize(context, UPLOAD_SCOPES);
  if (isReply(token)) return token;
  const videoId = context.url.searchParams.get('videoId') ?? '';
  const video = context.store.videos.find(
    (item) => item.id === videoId && item.channelId === token.channelId && item.uploadStatus !== 'deleted',
  );
  if (!video)
    return refused('videoNotFound', 'The video that you are trying to update cannot be found.', 404);
  if (context.store.channels.get(token.channelId)?.customThumbnails === false) {
    return refused(
      'forbidden',
      "The authenticated user doesn't have permissions to upload and set custom video thumbnails.",
      403,
    );
  }
  if (context.body.length === 0)
    return refused('mediaBodyRequired', 'The request does not include the image content.');
  if (context.body.length > THUMBNAIL_MAX_BYTES) {
    return refused('mediaTooLarge', 'The thumbnail is larger than 2 MB.', 413);
  }
  const contentType = (header(context, 'content-type') ?? '').split(';')[0]?.trim() ?? '';
  const kind = imageKind(context.body);
  if (!THUMBNAIL_TYPES.includes(contentType) || !kind) {
    return refused('invalidImage', 'The provided image content is invalid.');
  }
  const over = charge(context, context.settings.costs.thumbnail);
  if (over) return over;
  video.thumbnail = {
    sha256: FakeYouTubeStore.sha256(context.body),
    contentType: `image/${kind}`,
    size: context.body.length,
  };
  const url = `https://i.ytimg.com/vi/${video.id}/maxresdefault.jpg`;
  return {
    status: 200,
    json: {
      kind: 'youtube#thumbnailSetResponse',
      etag: video.thumbnail.sha256.slice(0, 16),
      items: [{ default: { url, width: 120, height: 90 }, high: { url, width: 480, height: 360 } }],
    },
  };
};
