import * as z from 'zod';
import {
  filenameProblem,
  MAX_BYTES_BY_KIND,
  MAX_FILENAME_BYTES,
  type Media,
  MIME_TYPES_BY_KIND,
} from '../../domain/media.js';
import { MEDIA_KINDS } from '../../domain/posts.js';
import { idOf, isoTimestamp } from '../common-schemas.js';
import { checkPublicUrl } from '../posts/post-schemas.js';

const SUPPORTED_TYPES = Object.values(MIME_TYPES_BY_KIND).flat() as [string, ...string[]];

export const mediaPathParams = z.object({ workspace_id: idOf('workspace'), media_id: idOf('media') });
export const shortMediaPathParams = z.object({ media_id: idOf('media') });

export const uploadUrlBody = z.strictObject({
  filename: z
    .string()
    .min(1)
    .max(MAX_FILENAME_BYTES)
    .superRefine((name, ctx) => {
      const problem = filenameProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(
      'One plain file name, at most 255 bytes: no / or \\, not "." or "..", no control or invisible formatting characters (bidirectional overrides, zero-width), no spaces at either end.',
    ),
  mimeType: z
    .enum(SUPPORTED_TYPES)
    .describe('image/jpeg|png|gif|webp|heic, video/mp4|quicktime|webm, application/pdf'),
  sizeBytes: z
    .number()
    .int()
    .min(1)
    .max(MAX_BYTES_BY_KIND.video)
    .describe('Exact size in bytes. At most 20 MiB for images, 1 GiB for videos, 100 MiB for documents.'),
});

export const importBody = z
  .strictObject({
    url: z.string().max(2048).describe('A public HTTPS URL, fetched by the service.'),
    type: z.enum(MEDIA_KINDS).describe('What the URL serves: image, video or document (a PDF).'),
  })
  .superRefine((body, ctx) => checkPublicUrl(body.url, ctx));

export const mediaResource = z
  .object({
    mediaId: z.string(),
    status: z.enum(['pending', 'uploaded', 'failed']),
    filename: z.string(),
    mimeType: z.string(),
    sizeBytes: z.number().int(),
    source: z.enum(['upload', 'url']),
    sourceUrl: z.string().optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    createdAt: isoTimestamp,
    uploadedAt: isoTimestamp.optional(),
    durationSeconds: z
      .number()
      .nonnegative()
      .optional()
      .describe(
        "A video's length in seconds, read from its file when it was uploaded or imported (MP4, QuickTime, WebM). Absent when unknown: not a video, or a file whose headers do not say it; such a video is accepted and its length is left to the network.",
      ),
    width: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("A video's frame width in pixels, as shown (rotation applied), when its file says it."),
    height: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("A video's frame height in pixels, as shown, when its file says it."),
  })
  .meta({ id: 'Media' });

export const uploadUrlResource = z
  .object({
    mediaId: z.string(),
    uploadUrl: z
      .string()
      .describe('PUT the raw bytes here, with exactly the headers below; no Authorization.'),
    expiresAt: isoTimestamp,
    status: z.literal('pending'),
    headers: z.record(z.string(), z.string()).describe('Headers the PUT must send, exactly as given.'),
  })
  .meta({ id: 'UploadUrl' });

export function toMediaResource(media: Media): z.input<typeof mediaResource> {
  return {
    mediaId: media.mediaId,
    status: media.status,
    filename: media.filename,
    mimeType: media.mimeType,
    sizeBytes: media.sizeBytes,
    source: media.source ?? 'upload',
    ...(media.sourceUrl && { sourceUrl: media.sourceUrl }),
    ...(media.error && { error: media.error }),
    createdAt: media.createdAt,
    ...(media.uploadedAt && { uploadedAt: media.uploadedAt }),
    ...(media.durationSeconds !== undefined && { durationSeconds: media.durationSeconds }),
    ...(media.width !== undefined &&
      media.height !== undefined && { width: media.width, height: media.height }),
  };
}
