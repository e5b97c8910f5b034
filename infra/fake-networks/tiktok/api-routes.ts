import type { Handler, RouteContext } from './context.js';
import { envelope, ok, type Reply } from './http.js';
import { appLimited, creatorStats } from './metrics-routes.js';
import { type Authorized, authorize, invalid, isReply, json } from './route-guards.js';
import type { FakePublish, FakeTikTokCreator } from './state.js';
import { mvhdDurationSeconds } from './video-duration.js';

function limited(context: RouteContext, auth: Authorized, endpoint: 'creator_info' | 'init' | 'status') {
  const limit = context.settings.perMinute[endpoint];
  return context.state.allowCall(auth.token.token, endpoint, limit, context.settings.now())
    ? undefined
    : envelope(429, 'rate_limit_exceeded', 'API rate limit exceeded, please retry later.');
}

/** GET /v2/user/info/?fields=…: the requested fields of the basic profile. */
export const userInfo: Handler = (context) => {
  const auth = authorize(context, 'user.info.basic');
  if (isReply(auth)) return auth;
  const fields = (context.url.searchParams.get('fields') ?? '').split(',').filter(Boolean);
  if (fields.length === 0) return invalid('fields is required.');
  const all: Record<string, string> = {
    open_id: auth.creator.openId,
    union_id: `union-${auth.creator.openId}`,
    avatar_url: auth.creator.avatarUrl,
    display_name: auth.creator.displayName,
  };
  if (fields.includes('username') && !auth.token.scopes.includes('user.info.profile')) {
    return envelope(401, 'scope_not_authorized', 'username needs user.info.profile.');
  }
  const refused = appLimited(context, 'user_info');
  if (refused) return refused;
  const stats = creatorStats(context, auth, fields);
  if (isReply(stats)) return stats;
  const user: Record<string, string | number> = { ...stats };
  for (const field of fields) {
    if (field === 'username') user.username = auth.creator.username;
    else if (all[field] !== undefined) user[field] = all[field];
  }
  return ok({ user });
};

/** POST /v2/post/publish/creator_info/query/. */
export const creatorInfo: Handler = (context) => {
  const auth = authorize(context, 'video.publish');
  if (isReply(auth)) return auth;
  const refused = limited(context, auth, 'creator_info');
  if (refused) return refused;
  const { creator } = auth;
  return ok({
    creator_avatar_url: creator.avatarUrl,
    creator_username: creator.username,
    creator_nickname: creator.displayName,
    privacy_level_options: creator.privacyLevelOptions,
    comment_disabled: creator.commentDisabled,
    duet_disabled: creator.duetDisabled,
    stitch_disabled: creator.stitchDisabled,
    max_video_post_duration_sec: creator.maxVideoPostDurationSec,
  });
};

const utf16Length = (text: string) => text.length;

/**
 * The post_info fields each init documents (developers.tiktok.com "Direct Post" and "Photo"):
 * a field the page does not list is refused, as a strict API refuses it, so a connector sending
 * a video field on a photo post (`is_aigc`, `disable_duet`) fails here and not at TikTok.
 */
const VIDEO_POST_INFO_FIELDS = [
  'title',
  'privacy_level',
  'disable_duet',
  'disable_comment',
  'disable_stitch',
  'video_cover_timestamp_ms',
  'brand_content_toggle',
  'brand_organic_toggle',
  'is_aigc',
];
const PHOTO_POST_INFO_FIELDS = [
  'title',
  'description',
  'privacy_level',
  'disable_comment',
  'auto_add_music',
  'brand_content_toggle',
  'brand_organic_toggle',
];

function unknownFieldProblem(postInfo: Record<string, unknown>, known: readonly string[]): Reply | undefined {
  const unknown = Object.keys(postInfo).filter((field) => !known.includes(field));
  return unknown.length > 0 ? invalid(`post_info has unknown fields: ${unknown.join(', ')}.`) : undefined;
}
const BOOLEAN_FIELDS = [
  'disable_duet',
  'disable_comment',
  'disable_stitch',
  'brand_content_toggle',
  'brand_organic_toggle',
  'is_aigc',
  'auto_add_music',
];

/** post_info checks shared by video and photo: privacy level among the creator's, booleans, text lengths. */
function postInfoProblem(
  postInfo: Record<string, unknown>,
  creator: FakeTikTokCreator,
  textLimits: Record<string, number>,
): Reply | undefined {
  const privacy = postInfo.privacy_level;
  if (typeof privacy !== 'string') return invalid('post_info.privacy_level is required.');
  if (!creator.privacyLevelOptions.includes(privacy)) {
    return envelope(400, 'privacy_level_option_mismatch', 'privacy_level is not among the creator options.');
  }
  for (const field of BOOLEAN_FIELDS) {
    if (postInfo[field] !== undefined && typeof postInfo[field] !== 'boolean')
      return invalid(`post_info.${field} must be a boolean.`);
  }
  for (const [field, limit] of Object.entries(textLimits)) {
    const value = postInfo[field];
    if (value !== undefined && (typeof value !== 'string' || utf16Length(value) > limit)) {
      return invalid(`post_info.${field} must be a string of at most ${limit} characters.`);
    }
  }
  return undefined;
}

/**
 * post_info of a MEDIA_UPLOAD photo draft: title and description as for a Direct Post; no
 * auto_add_music (the page's table: "Only works for post_mode = DIRECT_POST"; the creator picks
 * the music in the app); a privacy level, when given, still among the creator's.
 */
function draftInfoProblem(postInfo: Record<string, unknown>): Reply | undefined {
  if (postInfo.auto_add_music !== undefined)
    return invalid('post_info.auto_add_music only works for post_mode DIRECT_POST.');
  for (const field of BOOLEAN_FIELDS) {
    if (postInfo[field] !== undefined && typeof postInfo[field] !== 'boolean')
      return invalid(`post_info.${field} must be a boolean.`);
  }
  for (const [field, limit] of Object.entries({ title: 90, description: 4000 })) {
    const value = postInfo[field];
    if (value !== undefined && (typeof value !== 'string' || utf16Length(value) > limit)) {
      return invalid(`post_info.${field} must be a string of at most ${limit} characters.`);
    }
  }
  return undefined;
}

/** The creator's daily cap (spam_risk_too_many_posts), counted at init. */
function dailyCap(context: RouteContext, creator: FakeTikTokCreator): Reply | undefined {
  const day = `${creator.openId}:${new Date(context.settings.now()).toISOString().slice(0, 10)}`;
  const count = context.state.postsToday.get(day) ?? 0;
  if (count >= context.settings.dailyPostCap) {
    return envelope(403, 'spam_risk_too_many_posts', 'The user has reached the daily post limit.');
  }
  context.state.postsToday.set(day, count + 1);
  return undefined;
}

function newPublish(
  context: RouteContext,
  auth: Authorized,
  kind: 'video' | 'photo',
  body: Record<string, unknown>,
  mode: FakePublish['mode'] = 'direct',
): FakePublish {
  const prefix =
    mode === 'inbox' ? `${kind === 'video' ? 'v' : 'p'}_inbox` : kind === 'video' ? 'v_pub' : 'p_pub';
  const publishId = `${prefix}_${kind === 'video' ? 'file' : 'url'}~v2-1.${context.state.nextId()}`;
  const failReason = context.state.nextFailReasons.shift();
  const publish: FakePublish = {
    publishId,
    openId: auth.creator.openId,
    kind,
    mode,
    postInfo: (body.post_info ?? {}) as Record<string, unknown>,
    sourceInfo: (body.source_info ?? {}) as Record<string, unknown>,
    chunksReceived: 0,
    uploadedBytes: 0,
    bytes: [],
    status: kind === 'video' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD',
    pollsLeft: context.settings.processingPolls,
    ...(failReason && { failReason }),
    createdAt: context.settings.now(),
  };
  context.state.publishes.set(publishId, publish);
  return publish;
}

/** POST /v2/post/publish/video/init/: Direct Post of a video, FILE_UPLOAD with the chunk rules. */
export const videoInit: Handler = (context) => {
  const auth = authorize(context, 'video.publish');
  if (isReply(auth)) return auth;
  const refused = limited(context, auth, 'init');
  if (refused) return refused;
  const body = json(context);
  if (!body) return invalid('The body must be JSON.');
  const postInfo = body.post_info as Record<string, unknown> | undefined;
  const source = body.source_info as Record<string, unknown> | undefined;
  if (!postInfo || !source) return invalid('post_info and source_info are required.');
  const problem =
    unknownFieldProblem(postInfo, VIDEO_POST_INFO_FIELDS) ??
    postInfoProblem(postInfo, auth.creator, { title: 2200 });
  if (problem) return problem;
  return videoUpload(context, auth, body, source, 'direct');
};

/**
 * POST /v2/post/publish/inbox/video/init/: a video for the creator's inbox (video.upload). The
 * body is `source_info` only (the Upload page documents no post_info: the creator writes the
 * caption and sets the post in the app), so anything else is refused.
 */
export const inboxVideoInit: Handler = (context) => {
  const auth = authorize(context, 'video.upload');
  if (isReply(auth)) return auth;
  const refused = limited(context, auth, 'init');
  if (refused) return refused;
  const body = json(context);
  if (!body) return invalid('The body must be JSON.');
  const unknown = Object.keys(body).filter((field) => field !== 'source_info');
  if (unknown.length > 0) return invalid(`Unknown fields: ${unknown.join(', ')}.`);
  const source = body.source_info as Record<string, unknown> | undefined;
  if (!source) return invalid('source_info is required.');
  return videoUpload(context, auth, body, source, 'inbox');
};

/** FILE_UPLOAD with TikTok's chunk rules (PULL_FROM_URL refused: no domain is verified here). */
function videoUpload(
  context: RouteContext,
  auth: Authorized,
  body: Record<string, unknown>,
  source: Record<string, unknown>,
  mode: FakePublish['mode'],
): Reply {
  if (source.source !== 'FILE_UPLOAD') {
    if (source.source === 'PULL_FROM_URL')
      return envelope(403, 'url_ownership_unverified', 'The URL is not verified.');
    return invalid('source_info.source must be FILE_UPLOAD or PULL_FROM_URL.');
  }
  const { video_size: size, chunk_size: chunk, total_chunk_count: total } = source;
  if (typeof size !== 'number' || typeof chunk !== 'number' || typeof total !== 'number' || size <= 0) {
    return invalid('video_size, chunk_size and total_chunk_count are required.');
  }
  const s = context.settings;
  if (size < s.minChunkBytes) {
    if (chunk !== size || total !== 1)
      return invalid('A video under the minimum chunk size is one chunk of its size.');
  } else {
    if (chunk < s.minChunkBytes || chunk > s.maxChunkBytes) return invalid('chunk_size is out of range.');
    if (total !== Math.floor(size / chunk) || total < 1 || total > 1000)
      return invalid('total_chunk_count does not match.');
    if (size - (total - 1) * chunk > s.maxLastChunkBytes) return invalid('The last chunk is too large.');
  }
  const capped = dailyCap(context, auth.creator);
  if (capped) return capped;
  const publish = newPublish(context, auth, 'video', body, mode);
  publish.uploadKey = context.state.secret(12);
  publish.videoSize = size;
  publish.chunkSize = chunk;
  publish.totalChunks = total;
  return ok({ publish_id: publish.publishId, upload_url: `${context.baseUrl}/upload/${publish.uploadKey}` });
}

/**
 * POST /v2/post/publish/content/init/: a photo post, PULL_FROM_URL from verified URLs only.
 * DIRECT_POST needs video.publish; MEDIA_UPLOAD (a draft for the creator's inbox) video.upload,
 * and takes no privacy level (required for DIRECT_POST only). auto_add_music only with DIRECT_POST.
 */
export const contentInit: Handler = (context) => {
  const auth = authorize(context, ['video.publish', 'video.upload']);
  if (isReply(auth)) return auth;
  const refused = limited(context, auth, 'init');
  if (refused) return refused;
  const body = json(context);
  if (!body) return invalid('The body must be JSON.');
  if (body.media_type !== 'PHOTO') return invalid('media_type must be PHOTO.');
  if (body.post_mode !== 'DIRECT_POST' && body.post_mode !== 'MEDIA_UPLOAD')
    return invalid('post_mode is invalid.');
  const direct = body.post_mode === 'DIRECT_POST';
  const scope = authorize(context, direct ? 'video.publish' : 'video.upload');
  if (isReply(scope)) return scope;
  const postInfo = body.post_info as Record<string, unknown> | undefined;
  const source = body.source_info as Record<string, unknown> | undefined;
  if (!postInfo || !source) return invalid('post_info and source_info are required.');
  const problem =
    unknownFieldProblem(postInfo, PHOTO_POST_INFO_FIELDS) ??
    (direct
      ? postInfoProblem(postInfo, auth.creator, { title: 90, description: 4000 })
      : draftInfoProblem(postInfo));
  if (problem) return problem;
  // The photo page marks both toggles required for a Direct Post.
  if (body.post_mode === 'DIRECT_POST') {
    for (const field of ['brand_content_toggle', 'brand_organic_toggle']) {
      if (postInfo[field] === undefined) return invalid(`post_info.${field} is required.`);
    }
  }
  if (source.source !== 'PULL_FROM_URL') return invalid('Photos are taken by PULL_FROM_URL only.');
  const images = source.photo_images;
  if (
    !Array.isArray(images) ||
    images.length < 1 ||
    images.length > 35 ||
    !images.every((u) => typeof u === 'string')
  ) {
    return invalid('photo_images must list 1 to 35 URLs.');
  }
  const cover = source.photo_cover_index;
  if (typeof cover !== 'number' || cover < 0 || cover >= images.length)
    return invalid('photo_cover_index is out of range.');
  const prefixes = context.settings.verifiedUrlPrefixes;
  for (const image of images as string[]) {
    if (!/^https?:\/\//.test(image) || (prefixes && !prefixes.some((prefix) => image.startsWith(prefix)))) {
      return envelope(403, 'url_ownership_unverified', 'The URL domain or prefix is not verified.');
    }
  }
  const capped = dailyCap(context, auth.creator);
  if (capped) return capped;
  const publish = newPublish(context, auth, 'photo', body, direct ? 'direct' : 'inbox');
  return ok({ publish_id: publish.publishId });
};

const RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/;

/** PUT /upload/{key}: the chunks, in order, each exactly its range: 206 until the last, then 201. */
export const uploadChunk: Handler = (context) => {
  const publish = [...context.state.publishes.values()].find(
    (p) => p.uploadKey !== undefined && p.uploadKey === context.param,
  );
  if (
    !publish ||
    publish.videoSize === undefined ||
    publish.chunkSize === undefined ||
    publish.totalChunks === undefined
  ) {
    return { status: 404, json: { error: 'upload not found' } };
  }
  if (!/^video\/(mp4|quicktime|webm)$/.test(String(context.headers['content-type'] ?? ''))) {
    return { status: 400, json: { error: 'Content-Type must be video/mp4, video/quicktime or video/webm' } };
  }
  const range = RANGE.exec(String(context.headers['content-range'] ?? ''));
  if (!range) return { status: 400, json: { error: 'Content-Range is required' } };
  const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
  const index = publish.chunksReceived;
  if (index >= publish.totalChunks) return { status: 416, json: { error: 'all chunks were received' } };
  const expectedFirst = index * publish.chunkSize;
  const expectedLast =
    index === publish.totalChunks - 1 ? publish.videoSize - 1 : expectedFirst + publish.chunkSize - 1;
  if (total !== publish.videoSize || first !== expectedFirst || last !== expectedLast) {
    return {
      status: 416,
      json: { error: `expected bytes ${expectedFirst}-${expectedLast}/${publish.videoSize}` },
    };
  }
  if (context.body.length !== last - first + 1)
    return { status: 400, json: { error: 'body length does not match Content-Range' } };
  publish.bytes.push(context.body);
  publish.chunksReceived += 1;
  publish.uploadedBytes += context.body.length;
  return { status: publish.chunksReceived === publish.totalChunks ? 201 : 206 };
};

/** POST /v2/post/publish/status/fetch/: one step of the publish's life per poll. */
export const statusFetch: Handler = (context) => {
  // Either scope reads a publish's status (the Get Post Status page lists both).
  const auth = authorize(context, ['video.publish', 'video.upload']);
  if (isReply(auth)) return auth;
  const refused = limited(context, auth, 'status');
  if (refused) return refused;
  const body = json(context);
  const publish = context.state.publishes.get(String(body?.publish_id ?? ''));
  if (!publish || publish.openId !== auth.creator.openId) return invalid('publish_id is invalid.');
  const uploaded = publish.kind === 'photo' || publish.chunksReceived === publish.totalChunks;
  const settled = ['PUBLISH_COMPLETE', 'FAILED', 'SEND_TO_USER_INBOX'].includes(publish.status);
  if (uploaded && !settled) {
    const seconds = publish.kind === 'video' ? mvhdDurationSeconds(Buffer.concat(publish.bytes)) : undefined;
    // TikTok checks the length against the creator's longest once it has the file.
    if (seconds !== undefined && seconds > auth.creator.maxVideoPostDurationSec) {
      publish.failReason ??= 'duration_check_failed';
      publish.pollsLeft = 0;
    }
    if (publish.pollsLeft > 0) publish.pollsLeft -= 1;
    else if (publish.failReason) publish.status = 'FAILED';
    // An upload to the inbox ends there: the creator finishes it in the app (never here).
    else if (publish.mode === 'inbox') publish.status = 'SEND_TO_USER_INBOX';
    else {
      publish.status = 'PUBLISH_COMPLETE';
      // Only a post for public viewership gets a post id, once moderation approves it (which a
      // test may hold back: the post is complete, its id comes when released).
      if (publish.postInfo.privacy_level === 'PUBLIC_TO_EVERYONE') {
        if (context.state.moderationHeld) publish.inModeration = true;
        else publish.postId = context.state.nextPostId();
      }
    }
  }
  return ok({
    status: publish.status,
    ...(publish.status === 'FAILED' && { fail_reason: publish.failReason }),
    // list<int64>: bare JSON numbers, above 2^53 like TikTok's 19-digit ids.
    publicaly_available_post_id: publish.postId ? [BigInt(publish.postId)] : [],
    uploaded_bytes: publish.uploadedBytes,
  });
};
