import { authorize, charge, isReply } from './api-auth.js';
import { googleError, type Reply } from './http.js';
import { readRelatedParts } from './multipart-related.js';
import { type Handler, header, type RouteContext } from './route.js';
import type { FakeCaption } from './store.js';

/**
 * The scopes captions.insert and captions.list list (their references): `youtube.force-ssl` and
 * `youtubepartner`, not `youtube` nor `youtube.upload`.
 */
export const CAPTION_SCOPES = [
  'https://www.googleapis.com/auth/youtube.force-ssl',
  'https://www.googleapis.com/auth/youtubepartner',
];
/** The caption resource's snippet.name: "a maximum length of 150 characters" (nameTooLong). */
export const CAPTION_NAME_MAX_CHARS = 150;

function refused(status: number, reason: string, message: string): Reply {
  return googleError(status, reason, message, 'youtube.caption');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function videoOfChannel(context: RouteContext, videoId: string, channelId: string) {
  return context.store.videos.find(
    (video) => video.id === videoId && video.channelId === channelId && video.uploadStatus !== 'deleted',
  );
}

/**
 * What YouTube's processing makes of the file (asynchronous there, at once here): a timed WebVTT
 * or SubRip file is `serving`; anything else `failed` with failureReason unsupportedFormat (the
 * caption resource's values).
 */
function processed(text: string): Pick<FakeCaption, 'status' | 'failureReason'> {
  const body = text.replace(/^\uFEFF/, '');
  const webVtt = /^WEBVTT(?:$|[ \t\r\n])/.test(body);
  const subRip = /^\s*\d+\s*\r?\n\s*\d{1,2}:\d{2}:\d{2}[,.]\d{3}\s*-->/.test(body);
  return webVtt || subRip ? { status: 'serving' } : { status: 'failed', failureReason: 'unsupportedFormat' };
}

function captionResource(caption: FakeCaption) {
  return {
    kind: 'youtube#caption',
    id: caption.id,
    snippet: {
      videoId: caption.videoId,
      lastUpdated: caption.at,
      trackKind: 'standard',
      language: caption.language,
      name: caption.name,
      audioTrackType: 'unknown',
      isCC: false,
      isLarge: false,
      isEasyReader: false,
      isDraft: caption.isDraft,
      isAutoSynced: false,
      status: caption.status,
      ...(caption.failureReason && { failureReason: caption.failureReason }),
    },
  };
}

/**
 * POST /upload/youtube/v3/captions?part=snippet&uploadType=multipart (captions.insert reference):
 * `youtube.force-ssl` or `youtubepartner` (403 insufficientPermissions otherwise); a
 * multipart/related body of the caption resource (JSON) and the file; `snippet.videoId`,
 * `snippet.language` and `snippet.name` required (400 required), the name ≤ 150 characters
 * (400 nameTooLong), a file (400 contentRequired); the video must be the channel's (404
 * videoNotFound); a track of the same language and name is 409 captionExists. 400 units.
 */
export const captionsInsert: Handler = (context) => {
  const token = authorize(context, CAPTION_SCOPES);
  if (isReply(token)) return token;
  const params = context.url.searchParams;
  if (!params.get('part')) return refused(400, 'required', 'Required parameter: part');
  const parts =
    params.get('uploadType') === 'multipart'
      ? readRelatedParts(header(context, 'content-type'), context.body)
      : undefined;
  const [metadataPart, filePart] = parts ?? [];
  if (!metadataPart)
    return refused(400, 'contentRequired', 'The request does not contain the caption track contents.');
  let metadata: unknown;
  try {
    metadata = JSON.parse(metadataPart.body.toString('utf8'));
  } catch {
    return refused(400, 'parseError', 'Parse Error');
  }
  const snippet = isRecord(metadata) && isRecord(metadata.snippet) ? metadata.snippet : {};
  for (const field of ['videoId', 'language', 'name'] as const) {
    if (typeof snippet[field] !== 'string' || snippet[field] === '') {
      return refused(400, 'required', `Required: snippet.${field}`);
    }
  }
  const videoId = String(snippet.videoId);
  const language = String(snippet.language);
  const name = String(snippet.name);
  if ([...name].length > CAPTION_NAME_MAX_CHARS) {
    return refused(400, 'nameTooLong', 'The snippet.name specified in the request is too long.');
  }
  if (!filePart || filePart.body.length === 0) {
    return refused(400, 'contentRequired', 'The request does not contain the caption track contents.');
  }
  if (!videoOfChannel(context, videoId, token.channelId)) {
    return refused(404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.');
  }
  const taken = context.store.captions.some(
    (caption) =>
      caption.videoId === videoId &&
      caption.language.toLowerCase() === language.toLowerCase() &&
      caption.name === name,
  );
  if (taken) {
    return refused(
      409,
      'captionExists',
      'The specified video already has a caption track with the given snippet.language and snippet.name.',
    );
  }
  const charged = charge(context, context.settings.costs.captionsInsert);
  if (charged) return charged;
  const text = filePart.body.toString('utf8');
  const caption: FakeCaption = {
    id: `AUieDa${context.store.secret(24)}`,
    videoId,
    channelId: token.channelId,
    language,
    name,
    isDraft: snippet.isDraft === true,
    contentType: filePart.contentType,
    text,
    at: new Date(context.settings.now()).toISOString(),
    ...processed(text),
  };
  context.store.captions.push(caption);
  return { status: 200, json: captionResource(caption) };
};

/**
 * GET /youtube/v3/captions?part=snippet&videoId=… (captions.list reference): the same scopes as
 * the insert; `part` and `videoId` required; the video must be the channel's (404 videoNotFound).
 * 50 units.
 */
export const captionsList: Handler = (context) => {
  const token = authorize(context, CAPTION_SCOPES);
  if (isReply(token)) return token;
  const params = context.url.searchParams;
  if (!params.get('part')) return refused(400, 'required', 'Required parameter: part');
  const videoId = params.get('videoId') ?? '';
  if (!videoId) return refused(400, 'required', 'Required parameter: videoId');
  if (!videoOfChannel(context, videoId, token.channelId)) {
    return refused(404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.');
  }
  const charged = charge(context, context.settings.costs.captionsList);
  if (charged) return charged;
  const items = context.store.captions.filter((caption) => caption.videoId === videoId);
  return {
    status: 200,
    json: { kind: 'youtube#captionListResponse', items: items.map(captionResource) },
  };
};
