import { createHash } from 'node:crypto';
import { problems, type Reply } from './http.js';
import { CATEGORY_RULES, defaultCategory, MAX_SEGMENT_BYTES } from './media-limits.js';
import type { ApiContext } from './route.js';
import type { FakeMedia } from './store.js';

/**
 * X's v2 chunked media upload (twitter.md §2), after the bodies passed X's OpenAPI schema:
 * initialize (type, category, and size within the category's limit for this user: media-limits.ts),
 * append (segments in order, each 1 byte to 8 MiB, never past total_bytes), finalize (every byte
 * received), STATUS while processing, and the alt text.
 */

const EXPIRES_AFTER_SECS = 86_400;

/** The caller's own upload, or the answer X gives for anyone else's. */
function ownMedia(context: ApiContext, id: string): FakeMedia | Reply {
  const media = context.store.media.get(id);
  if (!media || media.ownerId !== context.user.id)
    return problems.notFound(`Could not find media with id: [${id}].`);
  return media;
}

const isReply = (value: FakeMedia | Reply): value is Reply => 'status' in value;

export function initialize(context: ApiContext): Reply {
  const body = context.json as { media_type?: string; total_bytes?: number; media_category?: string };
  const { media_type: mediaType, total_bytes: totalBytes } = body;
  if (!mediaType || totalBytes === undefined) {
    return problems.invalid('media_type and total_bytes are required.', { media_type: [], total_bytes: [] });
  }
  const category = body.media_category ?? defaultCategory(mediaType);
  const rule = CATEGORY_RULES[category];
  if (!rule?.fits(mediaType)) {
    return problems.invalid(`media_category ${category} does not take ${mediaType}.`, {
      media_category: [category],
    });
  }
  // "Limits follow the authenticated user (X Premium / verified status)".
  const limit = context.user.premium ? rule.maxBytes.premium : rule.maxBytes.standard;
  if (totalBytes > limit) {
    return problems.invalid(`File size exceeds ${limit} bytes.`, { total_bytes: [String(totalBytes)] });
  }
  const id = context.store.snowflake();
  const processes = rule.processed;
  context.store.media.set(id, {
    id,
    mediaKey: `${processes ? 7 : 3}_${id}`,
    ownerId: context.user.id,
    mediaType,
    category,
    totalBytes,
    segments: [],
    received: 0,
    digest: createHash('sha256'),
    stage: 'uploading',
    plan: processes ? context.control.takePlan() : { polls: 0, outcome: 'succeeded', checkAfterSecs: 0 },
    statusPolls: 0,
  });
  return {
    status: 200,
    json: { data: { id, media_key: `${processes ? 7 : 3}_${id}`, expires_after_secs: EXPIRES_AFTER_SECS } },
  };
}

export function append(context: ApiContext): Reply {
  const media = ownMedia(context, context.params.id ?? '');
  if (isReply(media)) return media;
  if (media.stage !== 'uploading')
    return problems.invalid('This upload is finalized already.', { id: [media.id] });
  const segment = Number(context.form.fields.segment_index);
  const chunk = context.form.files.media;
  if (!chunk) return problems.invalid('The media field must be a file or base64 text.', { media: [] });
  if (segment !== media.segments.length) {
    return problems.invalid(
      `Segment ${segment} is out of order: expected segment ${media.segments.length}.`,
      {
        segment_index: [String(segment)],
      },
    );
  }
  if (chunk.length === 0 || chunk.length > MAX_SEGMENT_BYTES) {
    return problems.invalid(`A segment must hold 1 to ${MAX_SEGMENT_BYTES} bytes.`, {
      media: [String(chunk.length)],
    });
  }
  if (media.received + chunk.length > media.totalBytes) {
    return problems.invalid('More bytes than declared in total_bytes at initialize.', { media: [] });
  }
  media.segments.push(chunk.length);
  media.received += chunk.length;
  media.digest.update(chunk);
  return {
    status: 200,
    json: { data: { expires_at: Math.floor(context.store.now() / 1000) + EXPIRES_AFTER_SECS } },
  };
}

function mediaData(media: FakeMedia) {
  const info =
    media.processing === 'succeeded' && !CATEGORY_RULES[media.category]?.processed
      ? undefined
      : {
          state: media.processing,
          ...(media.processing === 'pending' || media.processing === 'in_progress'
            ? { check_after_secs: media.plan.checkAfterSecs }
            : {}),
          ...(media.processing === 'in_progress' && {
            progress_percent: Math.round((100 * media.statusPolls) / (media.plan.polls + 1)),
          }),
          ...(media.processing === 'failed' && {
            error: { code: 1, name: 'InvalidMedia', message: 'Unsupported video format' },
          }),
        };
  return {
    id: media.id,
    media_key: media.mediaKey,
    size: media.totalBytes,
    expires_after_secs: EXPIRES_AFTER_SECS,
    ...(info && { processing_info: info }),
  };
}

export function finalize(context: ApiContext): Reply {
  const media = ownMedia(context, context.params.id ?? '');
  if (isReply(media)) return media;
  if (media.stage !== 'uploading')
    return problems.invalid('This upload is finalized already.', { id: [media.id] });
  if (media.received !== media.totalBytes) {
    return problems.invalid(`Received ${media.received} bytes; initialize declared ${media.totalBytes}.`, {
      total_bytes: [String(media.totalBytes)],
    });
  }
  media.stage = 'finalized';
  media.sha256 = media.digest.digest('hex');
  media.processing = media.plan.polls === 0 ? media.plan.outcome : 'pending';
  return { status: 200, json: { data: mediaData(media) } };
}

/** GET /2/media/upload?command=STATUS: each poll moves processing one step. */
export function status(context: ApiContext): Reply {
  const media = ownMedia(context, context.url.searchParams.get('media_id') ?? '');
  if (isReply(media)) return media;
  if (media.stage !== 'finalized')
    return problems.invalid('This upload is not finalized.', { media_id: [media.id] });
  if (media.processing === 'pending' || media.processing === 'in_progress') {
    media.statusPolls += 1;
    media.processing = media.statusPolls > media.plan.polls ? media.plan.outcome : 'in_progress';
  }
  return { status: 200, json: { data: mediaData(media) } };
}

export function metadata(context: ApiContext): Reply {
  const body = context.json as { id: string; metadata?: { alt_text?: { text: string } } };
  const media = ownMedia(context, body.id);
  if (isReply(media)) return media;
  const alt = body.metadata?.alt_text?.text;
  if (alt !== undefined) media.altText = alt;
  return { status: 200, json: { data: { id: media.id, associated_metadata: body.metadata ?? {} } } };
}
