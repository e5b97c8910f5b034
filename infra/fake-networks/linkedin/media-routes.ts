import { z } from 'zod';
import { isReply, jsonBody } from './api-auth.js';
import { linkedInError, type Reply, replies } from './http.js';
import { type ApiContext, type Handler, mayActAs, type RouteContext } from './route.js';
import type { FakeMediaKind, FakeUpload } from './store.js';

/** Upload URLs live an hour (LinkedIn's `uploadUrlExpiresAt`); the fake does not expire them. */
const UPLOAD_URL_TTL_MS = 60 * 60 * 1000;

const OwnerRequest = z.strictObject({ initializeUploadRequest: z.strictObject({ owner: z.string() }) });
const VideoInit = z.strictObject({
  initializeUploadRequest: z.strictObject({
    owner: z.string(),
    fileSizeBytes: z.number().int().positive(),
    uploadCaptions: z.boolean().optional(),
    uploadThumbnail: z.boolean().optional(),
  }),
});
const VideoFinalize = z.strictObject({
  finalizeUploadRequest: z.strictObject({
    video: z.string(),
    uploadToken: z.string(),
    uploadedPartIds: z.array(z.string()),
  }),
});

function idOf(urn: string): string {
  return urn.slice(urn.lastIndexOf(':') + 1);
}

function newUpload(context: ApiContext, kind: FakeMediaKind, owner: string): FakeUpload {
  const urn = `urn:li:${kind}:${context.store.opaque(kind === 'image' ? 'C4E10AQ' : 'D4E10AQ')}`;
  const upload: FakeUpload = { urn, kind, owner, status: 'WAITING_UPLOAD', checksLeft: 0, ends: 'AVAILABLE' };
  context.store.uploads.set(urn, upload);
  return upload;
}

/** Processing starts: checks answered PROCESSING, then AVAILABLE or (when told) PROCESSING_FAILED. */
function startProcessing(context: RouteContext, upload: FakeUpload): void {
  upload.status = 'PROCESSING';
  upload.checksLeft = context.control.processingChecks[upload.kind];
  if (context.control.failProcessing[upload.kind] > 0) {
    context.control.failProcessing[upload.kind] -= 1;
    upload.ends = 'PROCESSING_FAILED';
  }
}

/** POST /rest/images|documents?action=initializeUpload: the URN and where to PUT the file. */
export function initializeWhole(kind: 'image' | 'document'): Handler<ApiContext> {
  return (context) => {
    if (context.url.searchParams.get('action') !== 'initializeUpload')
      return replies.badRequest('Unknown action.');
    const body = jsonBody(context);
    if (isReply(body)) return body;
    const parsed = OwnerRequest.safeParse(body.json);
    if (!parsed.success) return replies.invalid('The initializeUploadRequest is malformed.');
    const owner = parsed.data.initializeUploadRequest.owner;
    if (!mayActAs(context, owner)) return replies.accessDenied(`${kind}s.ACTION-initializeUpload`);
    const upload = newUpload(context, kind, owner);
    upload.uploadToken = context.store.secret(12);
    upload.uploadUrl = `${context.baseUrl}/dms-uploads/${kind}/${idOf(upload.urn)}?sig=${upload.uploadToken}`;
    return {
      status: 200,
      json: {
        value: {
          uploadUrlExpiresAt: context.settings.now() + UPLOAD_URL_TTL_MS,
          uploadUrl: upload.uploadUrl,
          [kind]: upload.urn,
        },
      },
    };
  };
}

/**
 * LinkedIn refuses a body without a declared length: 411 Length Required, "the server will not
 * accept the request without" a Content-Length (learn.microsoft.com/linkedin/shared/api-guide/
 * concepts/error-handling#411-length-required). A chunked upload (Transfer-Encoding: chunked, no
 * Content-Length: what fetch sends for a streamed body) is refused so.
 */
function lengthProblem(context: RouteContext): Reply | undefined {
  if (context.headers['content-length'] !== undefined) return undefined;
  return linkedInError(411, 'Length Required: the request must have a Content-Length header.');
}

/** PUT an image's or document's bytes (with the member's bearer token, linkedin.md §3). */
export function uploadWhole(kind: 'image' | 'document'): Handler<ApiContext> {
  return (context) => {
    const unmeasured = lengthProblem(context);
    if (unmeasured) return unmeasured;
    const upload = context.store.uploads.get(`urn:li:${kind}:${context.params.id}`);
    if (!upload || context.url.searchParams.get('sig') !== upload.uploadToken) {
      return replies.notFound('No such upload.');
    }
    if (!mayActAs(context, upload.owner)) return replies.accessDenied('upload');
    if (upload.status !== 'WAITING_UPLOAD') return replies.badRequest('The file was uploaded already.');
    if (context.body.length === 0) return replies.badRequest('The upload is empty.');
    if (context.body.length > context.settings.maxBytes[kind]) {
      return replies.tooLarge(`The ${kind} is larger than ${context.settings.maxBytes[kind]} bytes.`);
    }
    upload.bytes = context.body;
    if (kind === 'image') upload.status = 'AVAILABLE';
    else startProcessing(context, upload);
    return { status: 201 };
  };
}

/**
 * POST /rest/videos?action=initializeUpload|finalizeUpload: the parts to PUT (byte ranges of the
 * declared size), then the finalize that must name every part's ETag, in order.
 */
export const videosAction: Handler<ApiContext> = (context) => {
  const action = context.url.searchParams.get('action');
  const body = jsonBody(context);
  if (isReply(body)) return body;
  if (action === 'initializeUpload') {
    const parsed = VideoInit.safeParse(body.json);
    if (!parsed.success) return replies.invalid('The initializeUploadRequest is malformed.');
    const { owner, fileSizeBytes } = parsed.data.initializeUploadRequest;
    if (!mayActAs(context, owner)) return replies.accessDenied('videos.ACTION-initializeUpload');
    // LinkedIn does not document its answer to an oversized video; the fake's is a 413.
    if (fileSizeBytes > context.settings.maxBytes.video) {
      return replies.tooLarge(`The video is larger than ${context.settings.maxBytes.video} bytes.`);
    }
    const upload = newUpload(context, 'video', owner);
    upload.fileSizeBytes = fileSizeBytes;
    upload.uploadToken = context.store.secret(12);
    const partSize = context.settings.videoPartBytes;
    upload.parts = [];
    for (let first = 0, n = 0; first < fileSizeBytes; first += partSize, n += 1) {
      upload.parts.push({
        firstByte: first,
        lastByte: Math.min(first + partSize, fileSizeBytes) - 1,
        uploadUrl: `${context.baseUrl}/dms-uploads/video/${idOf(upload.urn)}/part/${n}?sig=${upload.uploadToken}`,
      });
    }
    return {
      status: 200,
      json: {
        value: {
          uploadUrlsExpireAt: context.settings.now() + UPLOAD_URL_TTL_MS,
          video: upload.urn,
          uploadInstructions: upload.parts.map(({ uploadUrl, firstByte, lastByte }) => ({
            uploadUrl,
            firstByte,
            lastByte,
          })),
          uploadToken: upload.uploadToken,
        },
      },
    };
  }
  if (action === 'finalizeUpload') {
    const parsed = VideoFinalize.safeParse(body.json);
    if (!parsed.success) return replies.invalid('The finalizeUploadRequest is malformed.');
    const { video, uploadToken, uploadedPartIds } = parsed.data.finalizeUploadRequest;
    const upload = context.store.uploads.get(video);
    if (upload?.kind !== 'video' || !upload.parts) return replies.notFound('No such video.');
    if (!mayActAs(context, upload.owner)) {
      return {
        status: 403,
        json: {
          message:
            'Accessing this video resource is forbidden. Please check your permissions for this resource',
          status: 403,
        },
      };
    }
    if (upload.status !== 'WAITING_UPLOAD') return replies.badRequest('The video was finalized already.');
    if (uploadToken !== upload.uploadToken) return replies.badRequest('The uploadToken does not match.');
    const etags = upload.parts.map((part) => part.etag);
    if (etags.some((etag) => etag === undefined)) return replies.badRequest('Not every part was uploaded.');
    if (etags.length !== uploadedPartIds.length || etags.some((etag, i) => etag !== uploadedPartIds[i])) {
      return replies.badRequest('The uploadedPartIds do not match the uploaded parts, in order.');
    }
    startProcessing(context, upload);
    return { status: 200, json: {} };
  }
  return replies.badRequest('Unknown action.');
};

/** PUT one part of a video: exactly its byte range, as octet-stream; the answer's ETag names it. */
export const uploadVideoPart: Handler<RouteContext> = (context) => {
  const unmeasured = lengthProblem(context);
  if (unmeasured) return unmeasured;
  const upload = context.store.uploads.get(`urn:li:video:${context.params.id}`);
  const part = upload?.parts?.[Number(context.params.part)];
  if (!upload || !part || context.url.searchParams.get('sig') !== upload.uploadToken) {
    return replies.notFound('No such upload.');
  }
  if (upload.status !== 'WAITING_UPLOAD') return replies.badRequest('The video was finalized already.');
  if (context.headers['content-type'] !== 'application/octet-stream') {
    return replies.badRequest('A part must be application/octet-stream.');
  }
  const expected = part.lastByte - part.firstByte + 1;
  if (context.body.length !== expected) {
    return replies.badRequest(`The part must be ${expected} bytes; got ${context.body.length}.`);
  }
  part.etag = `/ambry-video/signedId/${context.store.opaque('')}`;
  const bytes = upload.bytes ?? Buffer.alloc(upload.fileSizeBytes ?? 0);
  context.body.copy(bytes, part.firstByte);
  upload.bytes = bytes;
  return { status: 200, headers: { etag: part.etag } };
};

/** GET /rest/images|videos|documents/{urn}: its status; each check of a processing one counts. */
export function mediaStatus(kind: FakeMediaKind): Handler<ApiContext> {
  return (context) => {
    const urn = decodeURIComponent(context.params.urn ?? '');
    const upload = context.store.uploads.get(urn);
    if (!upload || upload.kind !== kind) return replies.notFound(`No such ${kind}.`);
    if (!mayActAs(context, upload.owner)) return replies.accessDenied(`${kind}s.GET`);
    if (upload.status === 'PROCESSING') {
      if (upload.checksLeft > 0) upload.checksLeft -= 1;
      else upload.status = upload.ends;
    }
    return { status: 200, json: { id: upload.urn, owner: upload.owner, status: upload.status } };
  };
}
