import { contentItems } from '../../domain/posts.js';
import type { PublishOutcome, PublishRequest } from '../../ports/connector.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { isOk, readAnswer, type TikTokApi } from './api.js';
import { type CreatorInfo, queryCreatorInfo } from './creator.js';
import {
  type FailedOutcome,
  failed,
  failReasonOutcome,
  failureOf,
  privacyNotOffered,
  TikTokStepFailed,
} from './errors.js';
import { handedOver, inboxScopeMissing, scopeMissing } from './inbox.js';
import {
  type ChunkRules,
  chunkRange,
  planChunks,
  TIKTOK_CHECK_AFTER_SECONDS,
  TIKTOK_CHUNK_RULES,
  TIKTOK_CONTINUE_AFTER_SECONDS,
  TIKTOK_PER_MINUTE,
  TIKTOK_PHOTO_URL_SECONDS,
  TIKTOK_UPLOAD_BUDGET_MS,
} from './limits.js';
import { checkDuration, checkPhotos, refOf, shapeOf, storedVideo, type TikTokShape } from './media.js';
import { isInbox, readTikTokOptions, type TikTokDirectOptions, type TikTokPostOptions } from './options.js';
import { readProgress, type TikTokProgress, toPublishProgress } from './progress.js';
import { publishedOutcome } from './published.js';
import type { PerMinuteWindow } from './rate-window.js';
import { fetchStatus, type PublishStatus } from './status.js';

export interface TikTokPublishDeps {
  api: TikTokApi;
  /** Epoch milliseconds. */
  now: () => number;
  window: PerMinuteWindow;
  chunkRules?: ChunkRules;
  uploadBudgetMs?: number;
}

interface Attempt {
  request: PublishRequest;
  accessToken: string;
  options: TikTokPostOptions;
  shape: TikTokShape;
  progress: TikTokProgress;
}

const permanent = (code: string, message: string): FailedOutcome =>
  failed({ failure: 'permanent', code, message });

/**
 * Direct Post of one video (FILE_UPLOAD, in chunks) or photo post (PULL_FROM_URL), as steps that
 * survive the end of an invocation (networks/tiktok.md §2–5, docs/networks.md "Short-video network"):
 * 1. creator_info: the privacy level asked for must be one the creator offers, and a video no
 *    longer than the creator's longest (when its length is known);
 * 2. init: TikTok answers a publish id (and, for a video, an upload URL), kept in progress: no later
 *    attempt inits again, so no second post can come of it;
 * 3. the video's chunks, in order, one PUT each with its Content-Range, read from the bucket a
 *    chunk at a time; after ~30 s the invocation hands over (`pending`, stage `uploading`);
 * 4. status/fetch until PUBLISH_COMPLETE (`published`) or FAILED (its fail_reason mapped), `pending`
 *    in between.
 * In inbox mode (a draft for the creator's TikTok inbox, inbox.ts) there is no creator_info (the
 * upload takes no post settings to check), the video's init is `inbox/video/init/` with its
 * source_info only, photos go with post_mode MEDIA_UPLOAD, and SEND_TO_USER_INBOX ends it:
 * `awaiting_creator`.
 */
export function makeTikTokPublish(deps: TikTokPublishDeps) {
  const rules = deps.chunkRules ?? TIKTOK_CHUNK_RULES;
  const budgetMs = deps.uploadBudgetMs ?? TIKTOK_UPLOAD_BUDGET_MS;

  return async function publish(request: PublishRequest): Promise<PublishOutcome> {
    if (!request.credentials) {
      return failed({
        failure: 'auth_rejected',
        code: 'TOKEN_MISSING',
        message: 'The TikTok account has no access token to publish with.',
      });
    }
    const options = readTikTokOptions(request.post);
    if (options === 'invalid') {
      return permanent('PLATFORM_OPTIONS_INVALID', 'The post has TikTok options this connector cannot read.');
    }
    if (options === 'no_privacy_level') {
      return permanent(
        'PRIVACY_LEVEL_REQUIRED',
        'A TikTok post needs platformOptions.tiktok.privacyLevel; none is chosen for the creator.',
      );
    }
    const shape = shapeOf(request.media);
    if (!shape) {
      return permanent('PLATFORM_REJECTED', 'TikTok publishes one video, or 1 to 35 photos, per post.');
    }
    const ref = refOf(request.media);
    const earlier = readProgress(request.progress);
    const progress: TikTokProgress =
      earlier && earlier.ref === ref && earlier.kind === shape.kind
        ? { ...earlier }
        : { v: 1, ref, kind: shape.kind };
    delete progress.initSentAt;
    const attempt: Attempt = {
      request,
      accessToken: request.credentials.accessToken,
      options,
      shape,
      progress,
    };
    const withProgress = (outcome: FailedOutcome): FailedOutcome => ({
      ...outcome,
      progress: toPublishProgress(progress),
    });

    try {
      if (!progress.publishId) {
        const refused = await start(attempt);
        if (refused) return refused;
      }
      return await carryOn(attempt);
    } catch (error) {
      if (error instanceof TikTokStepFailed) return withProgress(error.outcome);
      if (error instanceof NoAnswerError && (progress.publishId || progress.initSentAt)) {
        // TikTok may have taken the request: the look-up asks it (by publish id) before anything is redone.
        return {
          kind: 'unknown',
          code: error.code === 'ABORTED' ? 'PLATFORM_TIMEOUT' : 'PLATFORM_NO_ANSWER',
          message: 'TikTok did not answer; it may have taken the post.',
          progress: toPublishProgress(progress.publishId ? { ...progress, uncertain: true } : progress),
        };
      }
      if (error instanceof RequestNotSentError) {
        return withProgress(
          failed({
            failure: 'transient',
            code: 'PLATFORM_UNREACHABLE',
            message: 'TikTok could not be reached.',
          }),
        );
      }
      if (error instanceof NoAnswerError) {
        return withProgress(
          failed({
            failure: 'transient',
            code: 'PLATFORM_NO_ANSWER',
            message: 'TikTok did not answer the creator check.',
          }),
        );
      }
      // Reading the media (bytes or a presigned URL) failed in storage, before TikTok had them.
      return withProgress(
        failed({ failure: 'transient', code: 'MEDIA_READ_FAILED', message: 'The media could not be read.' }),
      );
    }
  };

  /** creator_info, then init: sets the publish id in progress, or answers why not. */
  async function start(attempt: Attempt): Promise<FailedOutcome | undefined> {
    const { request, shape, progress } = attempt;
    const account = request.account.accountId;
    // Checked before any call, so a file TikTok would refuse is not announced at all.
    const video = shape.kind === 'video' ? storedVideo(shape.video) : undefined;
    if (shape.kind === 'photo') checkPhotos(shape.photos);

    const options = attempt.options;
    const windows = isInbox(options)
      ? ([['init', TIKTOK_PER_MINUTE.init]] as const)
      : ([
          ['creatorInfo', TIKTOK_PER_MINUTE.creatorInfo],
          ['init', TIKTOK_PER_MINUTE.init],
        ] as const);
    for (const [kind, limit] of windows) {
      const wait = deps.window.waitSeconds(account, kind, limit);
      if (wait > 0) {
        return failed({
          failure: 'rate_limited',
          code: 'RATE_LIMITED',
          message: `TikTok allows ${limit} such requests a minute per account; this account used them.`,
          retryAfterSeconds: wait,
        });
      }
    }
    let body: InitBody;
    if (isInbox(options)) {
      body = shape.kind === 'video' && video ? inboxVideoInit(video.size, rules) : await photoInit(attempt);
    } else {
      deps.window.record(account, 'creatorInfo');
      const creator = await queryCreatorInfo(deps.api, attempt.accessToken, request.signal);
      if (!creator.privacy_level_options.includes(options.privacyLevel)) {
        return failed(privacyNotOffered());
      }
      if (creator.creator_username) progress.handle = creator.creator_username;
      if (shape.kind === 'video') checkDuration(shape.video, creator.max_video_post_duration_sec);
      body =
        shape.kind === 'video' && video
          ? videoInit(attempt, options, creator, video.size, rules)
          : await photoInit(attempt, { options, creator });
    }
    deps.window.record(account, 'init');
    progress.initSentAt = new Date(deps.now()).toISOString();
    const answer = await readAnswer(
      await deps.api.call({
        path: initPath(shape.kind, isInbox(options)),
        accessToken: attempt.accessToken,
        json: body.json,
        signal: request.signal,
      }),
    );
    delete progress.initSentAt;
    if (!isOk(answer)) {
      // Without video.upload TikTok refuses the inbox upload: only a reconnect can grant it.
      if (isInbox(options) && scopeMissing(answer)) return inboxScopeMissing(answer.code);
      return failureOf(answer, 'init');
    }
    const data = answer.data as { publish_id?: unknown; upload_url?: unknown } | undefined;
    const publishId = typeof data?.publish_id === 'string' ? data.publish_id : undefined;
    const uploadUrl = typeof data?.upload_url === 'string' ? data.upload_url : undefined;
    if (!publishId || (shape.kind === 'video' && !uploadUrl)) {
      return failed({
        failure: 'transient',
        code: 'PLATFORM_ERROR',
        message: 'TikTok accepted the post request without naming it.',
      });
    }
    progress.publishId = publishId;
    if (body.plan && uploadUrl) {
      progress.upload = { url: uploadUrl, size: body.plan.size, ...body.plan.chunks, next: 0 };
    }
    return undefined;
  }

  /** With a publish id: settle a lost answer, send the chunks left, then ask for the status. */
  async function carryOn(attempt: Attempt): Promise<PublishOutcome> {
    const { progress } = attempt;
    let status: PublishStatus | undefined;
    if (progress.uncertain) {
      const waited = await statusOrWait(attempt);
      if ('kind' in waited) return waited;
      status = waited;
      delete progress.uncertain;
      const upload = progress.upload;
      if (upload && status.status === 'PROCESSING_UPLOAD' && upload.next < upload.totalChunks) {
        // Resume at the chunk TikTok has not got whole; without a byte count, resend the one in doubt.
        if (status.uploadedBytes !== undefined) {
          upload.next = Math.min(upload.totalChunks, Math.floor(status.uploadedBytes / upload.chunkSize));
        }
        status = undefined;
      }
    }
    const upload = progress.upload;
    if (status === undefined && upload && upload.next < upload.totalChunks) {
      const handedOver = await uploadChunks(attempt);
      if (handedOver) return handedOver;
    }
    if (status === undefined) {
      const waited = await statusOrWait(attempt);
      if ('kind' in waited) return waited;
      status = waited;
    }
    return outcomeOf(attempt, status);
  }

  /** A status fetch, or a `pending` when this account used its 30 a minute. */
  async function statusOrWait(attempt: Attempt): Promise<PublishStatus | PublishOutcome> {
    const account = attempt.request.account.accountId;
    const wait = deps.window.waitSeconds(account, 'status', TIKTOK_PER_MINUTE.status);
    if (wait > 0) {
      return {
        kind: 'pending',
        progress: toPublishProgress(attempt.progress),
        checkAfterSeconds: Math.max(TIKTOK_CONTINUE_AFTER_SECONDS, wait),
        stage: 'status_rate_limited',
      };
    }
    deps.window.record(account, 'status');
    const publishId = attempt.progress.publishId ?? '';
    try {
      return await fetchStatus(deps.api, attempt.accessToken, publishId, attempt.request.signal);
    } catch (error) {
      // TikTok's own per-minute refusal: the post is fine, look again in a minute.
      if (error instanceof TikTokStepFailed && error.outcome.failure === 'rate_limited') {
        return {
          kind: 'pending',
          progress: toPublishProgress(attempt.progress),
          checkAfterSeconds: error.outcome.retryAfterSeconds ?? 60,
          stage: 'status_rate_limited',
        };
      }
      throw error;
    }
  }

  function outcomeOf(attempt: Attempt, status: PublishStatus): PublishOutcome {
    const { progress } = attempt;
    // The draft reached the creator's inbox: what they do with it next is theirs (docs/networks.md).
    if (status.status === 'SEND_TO_USER_INBOX' && isInbox(attempt.options)) {
      return handedOver(progress.kind, textOf(attempt));
    }
    if (status.status === 'PUBLISH_COMPLETE') {
      return publishedOutcome(
        progress,
        attempt.options.privacyLevel,
        progress.handle ?? attempt.request.account.handle,
        status.postId,
      );
    }
    if (status.status === 'FAILED') {
      // Nothing was published under this publish id: a retry starts over with a new init.
      const { v, ref, kind } = progress;
      return { ...failReasonOutcome(status.failReason), progress: toPublishProgress({ v, ref, kind }) };
    }
    return {
      kind: 'pending',
      progress: toPublishProgress(progress),
      checkAfterSeconds: TIKTOK_CHECK_AFTER_SECONDS,
      stage: status.status === 'SEND_TO_USER_INBOX' ? 'inbox' : 'processing',
    };
  }

  /** The chunks left, in order; hands over after the budget with `pending` (stage uploading). */
  async function uploadChunks(attempt: Attempt): Promise<PublishOutcome | undefined> {
    const { request, progress, shape } = attempt;
    const upload = progress.upload;
    if (!upload || shape.kind !== 'video') return undefined;
    const video = storedVideo(shape.video);
    const bytes = request.bytes;
    if (!bytes) {
      throw new TikTokStepFailed(
        failed({
          failure: 'transient',
          code: 'MEDIA_UNAVAILABLE',
          message: 'The media bytes could not be read for the upload.',
        }),
      );
    }
    const startedAt = deps.now();
    const first = upload.next;
    while (upload.next < upload.totalChunks) {
      if (upload.next > first && deps.now() - startedAt >= budgetMs) {
        return {
          kind: 'pending',
          progress: toPublishProgress(progress),
          checkAfterSeconds: TIKTOK_CONTINUE_AFTER_SECONDS,
          stage: 'uploading',
        };
      }
      const { start, end } = chunkRange(upload, upload.size, upload.next);
      const chunk = await bytes.readRange(video.key, start, end, request.signal);
      const response = await deps.api.putChunk({
        url: upload.url,
        bytes: chunk,
        contentType: video.contentType,
        contentRange: `bytes ${start}-${end - 1}/${upload.size}`,
        signal: request.signal,
      });
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) throw new TikTokStepFailed(chunkRefusal(response.status, progress));
      upload.next += 1;
    }
    return undefined;
  }
}

/** A chunk TikTok's upload host refused. */
function chunkRefusal(status: number, progress: TikTokProgress): FailedOutcome {
  const raw = `http_${status}`;
  if (status === 403 || status === 404 || status === 410) {
    // The upload URL is gone (it lives about an hour): the next attempt inits again.
    delete progress.publishId;
    delete progress.upload;
    return failed(
      {
        failure: 'transient',
        code: 'MEDIA_UPLOAD_EXPIRED',
        message: "TikTok's upload address for the video expired.",
      },
      raw,
    );
  }
  if (status === 416) {
    // TikTok expected another range: ask it where it stands before sending more.
    progress.uncertain = true;
    return failed(
      {
        failure: 'transient',
        code: 'MEDIA_UPLOAD_OUT_OF_SYNC',
        message: 'TikTok expected another part of the video.',
      },
      raw,
    );
  }
  if (status === 413) {
    return failed(
      {
        failure: 'permanent',
        code: 'MEDIA_TOO_LARGE',
        message: 'TikTok refused the video: the file is too large.',
      },
      raw,
    );
  }
  if (status >= 500 || status === 429) {
    return failed(
      {
        failure: 'transient',
        code: 'PLATFORM_ERROR',
        message: 'TikTok failed while taking a part of the video.',
      },
      raw,
    );
  }
  return failed(
    { failure: 'permanent', code: 'MEDIA_REJECTED', message: 'TikTok refused a part of the video.' },
    raw,
  );
}

/** The interactions off: what the caller asked, and whatever the creator turned off in TikTok. */
function interactions(options: TikTokDirectOptions, creator: CreatorInfo) {
  return {
    disable_comment: Boolean(options.disableComment || creator.comment_disabled),
    disable_duet: Boolean(options.disableDuet || creator.duet_disabled),
    disable_stitch: Boolean(options.disableStitch || creator.stitch_disabled),
  };
}

/** Paid partnership / own business: fields of both the video and the photo post_info. */
function brandToggles(options: TikTokDirectOptions) {
  return {
    brand_content_toggle: options.brandContentToggle ?? false,
    brand_organic_toggle: options.brandOrganicToggle ?? false,
  };
}

function textOf(attempt: Attempt): string {
  return contentItems(attempt.request.post)[0]?.text ?? '';
}

interface InitBody {
  plan?: { size: number; chunks: { chunkSize: number; totalChunks: number } };
  json: Record<string, unknown>;
}

function initPath(kind: 'video' | 'photo', inbox: boolean): string {
  if (kind === 'photo') return '/v2/post/publish/content/init/';
  return inbox ? '/v2/post/publish/inbox/video/init/' : '/v2/post/publish/video/init/';
}

function fileUpload(size: number, rules: ChunkRules) {
  const chunks = planChunks(size, rules);
  const source_info = {
    source: 'FILE_UPLOAD',
    video_size: size,
    chunk_size: chunks.chunkSize,
    total_chunk_count: chunks.totalChunks,
  };
  return { plan: { size, chunks }, source_info };
}

function videoInit(
  attempt: Attempt,
  options: TikTokDirectOptions,
  creator: CreatorInfo,
  size: number,
  rules: ChunkRules,
): InitBody {
  const { plan, source_info } = fileUpload(size, rules);
  const { disable_comment, disable_duet, disable_stitch } = interactions(options, creator);
  return {
    plan,
    json: {
      post_info: {
        title: textOf(attempt),
        privacy_level: options.privacyLevel,
        disable_duet,
        disable_comment,
        disable_stitch,
        ...brandToggles(options),
        // The AI label is a video field only (the Direct Post page lists it; the photo page does not).
        ...(options.isAiGenerated !== undefined && { is_aigc: options.isAiGenerated }),
      },
      source_info,
    },
  };
}

/** The inbox upload of a video: its source_info only; TikTok's endpoint takes no caption or settings. */
function inboxVideoInit(size: number, rules: ChunkRules): InitBody {
  const { plan, source_info } = fileUpload(size, rules);
  return { plan, json: { source_info } };
}

/**
 * Photos go by PULL_FROM_URL only: TikTok downloads them, from a domain verified for the app.
 * Stored photos get a presigned GET of the media bucket (whose domain the operator verifies with
 * TikTok); without one, a photo's own URL is used.
 */
async function photoInit(
  attempt: Attempt,
  direct?: { options: TikTokDirectOptions; creator: CreatorInfo },
): Promise<InitBody> {
  const { request } = attempt;
  const photos = attempt.shape.kind === 'photo' ? attempt.shape.photos : [];
  const urls: string[] = [];
  for (const photo of photos) {
    const key = photo.stored?.objectKey;
    if (key && request.mediaUrls)
      urls.push(await request.mediaUrls.presignGet(key, TIKTOK_PHOTO_URL_SECONDS, request.signal));
    else if (photo.url) urls.push(photo.url);
    else {
      throw new TikTokStepFailed(
        failed({
          failure: 'permanent',
          code: 'MEDIA_URL_UNAVAILABLE',
          message: 'TikTok takes photos by URL only, and this deployment cannot give one for a stored photo.',
        }),
      );
    }
  }
  const source_info = { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: urls };
  if (!direct) {
    // A draft: the text travels as its description; privacy, interactions and music are the
    // creator's choice in the app (MEDIA_UPLOAD: "users complete the post using TikTok's editing flow").
    return {
      json: {
        media_type: 'PHOTO',
        post_mode: 'MEDIA_UPLOAD',
        post_info: { description: textOf(attempt) },
        source_info,
      },
    };
  }
  const { options, creator } = direct;
  const { disable_comment } = interactions(options, creator);
  return {
    json: {
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: {
        description: textOf(attempt),
        privacy_level: options.privacyLevel,
        disable_comment,
        ...brandToggles(options),
        ...(options.autoAddMusic !== undefined && { auto_add_music: options.autoAddMusic }),
      },
      source_info,
    },
  };
}
