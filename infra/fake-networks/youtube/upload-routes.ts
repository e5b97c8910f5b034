import { authorize, charge, isReply } from './api-auth.js';
import { videoResource } from './api-routes.js';
import { googleErrors, type Reply } from './http.js';
import { type Handler, header, type RouteContext, UPLOAD_SCOPES } from './route.js';
import { type FakeSession, type FakeSnippet, FakeYouTubeStore } from './store.js';

/** Non-final chunks must be multiples of 256 KiB (youtube.md §1). */
export const CHUNK_UNIT = 256 * 1024;
const PRIVACY = ['private', 'public', 'unlisted'];
const ANGLE = /[<>]/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** YouTube's counting of the tags list: commas between, two more for a tag with a space. */
function tagsLength(tags: string[]): number {
  return (
    tags.reduce((sum, tag) => sum + [...tag].length + (/\s/.test(tag) ? 2 : 0), 0) +
    Math.max(0, tags.length - 1)
  );
}

/** The metadata checks of videos.insert (youtube.md §3), as the reasons Google answers. */
function readResource(body: unknown, nowMs: number): FakeSession['resource'] | Reply {
  if (!isRecord(body) || !isRecord(body.snippet))
    return googleErrors.invalid('invalidTitle', 'The video title is required.');
  const snippet = body.snippet;
  const title = typeof snippet.title === 'string' ? snippet.title : '';
  if (title.trim() === '' || [...title].length > 100 || ANGLE.test(title)) {
    return googleErrors.invalid(
      'invalidTitle',
      'The request metadata specifies an invalid or empty video title.',
    );
  }
  const description = typeof snippet.description === 'string' ? snippet.description : '';
  if (Buffer.byteLength(description, 'utf8') > 5000 || ANGLE.test(description)) {
    return googleErrors.invalid(
      'invalidDescription',
      'The request metadata specifies an invalid video description.',
    );
  }
  const tags = Array.isArray(snippet.tags)
    ? snippet.tags.filter((tag): tag is string => typeof tag === 'string')
    : undefined;
  if (tags && tagsLength(tags) > 500) {
    return googleErrors.invalid('invalidTags', 'The request metadata specifies invalid video keywords.');
  }
  const categoryId = typeof snippet.categoryId === 'string' ? snippet.categoryId : undefined;
  if (categoryId !== undefined && !/^[0-9]+$/.test(categoryId)) {
    return googleErrors.invalid(
      'invalidCategoryId',
      'The snippet.categoryId property specifies an invalid category ID.',
    );
  }
  const status = isRecord(body.status) ? body.status : {};
  const privacyStatus = typeof status.privacyStatus === 'string' ? status.privacyStatus : 'public';
  if (!PRIVACY.includes(privacyStatus)) {
    return googleErrors.invalid('invalidVideoMetadata', 'The request metadata is invalid.');
  }
  const publishAt = readPublishAt(status.publishAt, privacyStatus, nowMs);
  if (isReply(publishAt)) return publishAt;
  const result: FakeSnippet = {
    title,
    description,
    ...(tags && { tags }),
    ...(categoryId && { categoryId }),
  };
  return {
    snippet: result,
    status: {
      privacyStatus,
      selfDeclaredMadeForKids: status.selfDeclaredMadeForKids === true,
      ...(publishAt && { publishAt }),
    },
  };
}

/**
 * `status.publishAt` (docs/research/network-extras.md §2a, §2f): "can be set only if the privacy
 * status of the video is private". With another privacy it is ignored without an error (observed,
 * and what this fake does); on a private video a value that is not an ISO 8601 time, or a time not
 * ahead, is 400 invalidPublishAt (the docs are silent on a past time: the fake's choice).
 */
function readPublishAt(value: unknown, privacyStatus: string, nowMs: number): string | undefined | Reply {
  if (value === undefined || value === null || privacyStatus !== 'private') return undefined;
  const at = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at) || at <= nowMs) {
    return googleErrors.invalid(
      'invalidPublishAt',
      'The request metadata specifies an invalid scheduled publishing time.',
    );
  }
  return new Date(at).toISOString();
}

/**
 * POST /upload/youtube/v3/videos?uploadType=resumable&part=snippet,status: opens a session (the
 * insert's 1,600 units are counted here), after the checks Google makes: upload scope, the upload
 * headers, the metadata, the project's quota, the channel's daily upload cap.
 */
export const startSession: Handler = (context) => {
  const token = authorize(context, UPLOAD_SCOPES);
  if (isReply(token)) return token;
  const params = context.url.searchParams;
  if (params.get('uploadType') !== 'resumable') {
    return googleErrors.invalid('badRequest', 'This fake only takes resumable uploads.');
  }
  if (!params.get('part')) return googleErrors.invalid('required', 'Required parameter: part');
  const total = Number(header(context, 'x-upload-content-length'));
  if (!Number.isInteger(total) || total < 0) {
    return googleErrors.invalid('badRequest', 'X-Upload-Content-Length is required.');
  }
  const contentType = header(context, 'x-upload-content-type') ?? '';
  if (!contentType.startsWith('video/') && contentType !== 'application/octet-stream') {
    return googleErrors.invalid('invalidContentType', 'Media type is not supported.');
  }
  if (total > context.settings.maxFileBytes)
    return googleErrors.invalid('uploadTooLarge', 'The file is too large.');
  let body: unknown;
  try {
    body = JSON.parse(context.body.toString('utf8'));
  } catch {
    return googleErrors.invalid('parseError', 'Parse Error');
  }
  const resource = readResource(body, context.settings.now());
  if (isReply(resource)) return resource;
  const uploads = context.store.uploadsToday.get(token.channelId) ?? 0;
  if (uploads >= context.settings.uploadsPerDay) return googleErrors.uploadLimitExceeded();
  const refused = charge(context, context.settings.costs.insert);
  if (refused) return refused;
  context.store.uploadsToday.set(token.channelId, uploads + 1);
  const uploadId = context.store.secret(24);
  context.store.sessions.set(uploadId, {
    uploadId,
    channelId: token.channelId,
    total,
    contentType,
    resource,
    notifySubscribers: params.get('notifySubscribers') !== 'false',
    received: [],
    receivedBytes: 0,
  });
  const location = new URL('/upload/youtube/v3/videos', context.baseUrl);
  location.searchParams.set('uploadType', 'resumable');
  location.searchParams.set('part', params.get('part') ?? '');
  location.searchParams.set('upload_id', uploadId);
  return { status: 200, location: location.toString() };
};

function resumeIncomplete(session: FakeSession): Reply {
  return {
    status: 308,
    headers: session.receivedBytes > 0 ? { range: `bytes=0-${session.receivedBytes - 1}` } : {},
  };
}

function finish(context: RouteContext, session: FakeSession): Reply {
  const store = context.store;
  if (!session.videoId) {
    const bytes = Buffer.concat(session.received);
    const sha256 = FakeYouTubeStore.sha256(bytes);
    const injected = context.control.outcomes.shift();
    const duplicate = store.videos.some(
      (video) =>
        video.channelId === session.channelId && video.sha256 === sha256 && video.uploadStatus !== 'rejected',
    );
    const id = store.videoId();
    store.videos.push({
      id,
      channelId: session.channelId,
      snippet: session.resource.snippet,
      // An unaudited project's uploads are locked private, in the insert's answer and after.
      privacyStatus: context.settings.unauditedProject ? 'private' : session.resource.status.privacyStatus,
      madeForKids: session.resource.status.selfDeclaredMadeForKids,
      // An unaudited project's uploads stay locked private: no scheduled publishing either (a guess: the docs are silent).
      ...(!context.settings.unauditedProject &&
        session.resource.status.publishAt && { publishAt: session.resource.status.publishAt }),
      notifySubscribers: session.notifySubscribers,
      sha256,
      size: bytes.length,
      uploadStatus: 'uploaded',
      processingPollsLeft: context.settings.processingPolls,
      outcome:
        injected ??
        (duplicate
          ? { uploadStatus: 'rejected', rejectionReason: 'duplicate' }
          : { uploadStatus: 'processed' }),
      uploadedAt: new Date(context.settings.now()).toISOString(),
    });
    session.videoId = id;
  }
  const video = store.videos.find((item) => item.id === session.videoId);
  return {
    status: 200,
    json: video ? videoResource(video, ['snippet', 'status'], context.settings.now()) : {},
  };
}

/**
 * PUT on a session URI: a status query (`Content-Range: bytes *\/total`, empty body) answers 308
 * with the Range received (none when nothing is) or the video once complete; a chunk
 * (`bytes a-b/total`) must start where the received bytes end, carry exactly b-a+1 bytes and, if
 * not the last, a multiple of 256 KiB. `keepBytes` (an injected interruption) keeps only the start.
 */
export function putChunk(context: RouteContext, keepBytes?: number): Reply {
  const session = context.store.sessions.get(context.url.searchParams.get('upload_id') ?? '');
  if (!session) return googleErrors.notFound('The upload session does not exist or has expired.');
  const range = header(context, 'content-range') ?? '';
  const query = /^bytes \*\/([0-9]+)$/.exec(range);
  if (query) {
    if (Number(query[1]) !== session.total)
      return googleErrors.invalid('badRequest', 'Content-Range total mismatch.');
    if (session.videoId) return finish(context, session);
    if (session.total === 0 && context.body.length === 0) return finish(context, session);
    return resumeIncomplete(session);
  }
  const chunk = /^bytes ([0-9]+)-([0-9]+)\/([0-9]+)$/.exec(range);
  if (!chunk) return googleErrors.invalid('badRequest', 'Content-Range is required on a chunk.');
  const [first, last, total] = [Number(chunk[1]), Number(chunk[2]), Number(chunk[3])];
  if (total !== session.total || last < first || last >= total) {
    return googleErrors.invalid('badRequest', 'Content-Range does not fit the upload.');
  }
  if (context.body.length !== last - first + 1) {
    return googleErrors.invalid('badRequest', 'The body length does not match Content-Range.');
  }
  if (session.videoId) return finish(context, session);
  if (first > session.receivedBytes) {
    return googleErrors.invalid('badRequest', 'The chunk does not continue the bytes received.');
  }
  if (last + 1 < total && context.body.length % CHUNK_UNIT !== 0) {
    return googleErrors.invalid('badRequest', 'A chunk other than the last must be a multiple of 256 KiB.');
  }
  // Bytes already held (a chunk sent again after a lost answer) are not kept twice.
  let bytes = context.body.subarray(session.receivedBytes - first);
  if (keepBytes !== undefined) bytes = bytes.subarray(0, keepBytes);
  session.received.push(Buffer.from(bytes));
  session.receivedBytes += bytes.length;
  if (session.receivedBytes === session.total) return finish(context, session);
  return resumeIncomplete(session);
}
