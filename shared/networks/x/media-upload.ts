import type { DeliveryMedia } from '../../ports/connector.js';
import type { MediaBytes } from '../../ports/media-bytes.js';
import { mediaAnswer, type ProcessingInfo } from './answers.js';
import { callX, type XAnswer, type XCaller } from './api.js';
import {
  badAnswer,
  type FailedOutcome,
  failureOfAnswer,
  failureOfError,
  localFailure,
  processingFailure,
} from './errors.js';
import {
  isXMediaType,
  mediaCategoryOf,
  type SegmentPlan,
  segmentPlan,
  X_ALT_TEXT_MAX_CHARS,
} from './limits.js';
import type { MediaProgress } from './progress.js';

export interface UploadContext {
  caller: XCaller;
  bytes: MediaBytes | undefined;
  /** Bytes per APPEND (X_CHUNK_BYTES), unless a file needs larger segments (segmentPlan). */
  chunkBytes: number;
  now: () => number;
  /**
   * Past this (epoch ms) no further chunk is started: the upload hands back `pending` with the next
   * segment in its progress, and the next invocation carries on, so a large video never has to
   * fit in one invocation's time-out.
   */
  appendUntil: number;
}

/**
 * Where one file stands after this call. `progress` is what to keep for it (undefined: forget it,
 * the next attempt starts the upload over).
 */
export type MediaStep =
  | { kind: 'ready'; progress: MediaProgress }
  | { kind: 'pending'; progress: MediaProgress; checkAfterSeconds: number; stage: string }
  | { kind: 'failed'; outcome: FailedOutcome; progress: MediaProgress | undefined };

/** How long to wait when X's processing_info names no time. */
const DEFAULT_CHECK_AFTER_SECONDS = 5;

/**
 * Takes one file as far as it can go (twitter.md §2): INIT, APPEND each chunk (read from storage
 * one chunk at a time, never the whole file), FINALIZE, then STATUS while X processes it, and its
 * alt text once it is ready. Resumes from `current`, so nothing done is done again.
 */
export async function advanceMedia(
  context: UploadContext,
  media: DeliveryMedia,
  current: MediaProgress | undefined,
): Promise<MediaStep> {
  const { stored } = media;
  const { bytes } = context;
  const objectKey = stored?.objectKey;
  if (!stored || !objectKey || !bytes) {
    return { kind: 'failed', outcome: localFailure('transient', 'MEDIA_UNAVAILABLE'), progress: current };
  }
  const { mimeType, sizeBytes } = stored;
  if (!isXMediaType(mimeType) || media.kind === 'document') {
    return {
      kind: 'failed',
      outcome: localFailure('permanent', 'MEDIA_TYPE_NOT_SUPPORTED'),
      progress: undefined,
    };
  }
  const { category, maxBytes } = mediaCategoryOf(mimeType);
  const plan = segmentPlan(sizeBytes, context.chunkBytes);
  if (sizeBytes > maxBytes || !plan) {
    return { kind: 'failed', outcome: localFailure('permanent', 'MEDIA_TOO_LARGE'), progress: undefined };
  }

  let state = current;
  try {
    if (!state) {
      const answer = await callX(context.caller, {
        method: 'POST',
        path: '/2/media/upload/initialize',
        json: { media_type: mimeType, total_bytes: sizeBytes, media_category: category },
      });
      const initialized = readMediaAnswer(answer, context);
      if ('kind' in initialized) return { kind: 'failed', outcome: initialized, progress: undefined };
      state = { id: initialized.id, stage: 'appending', next: 0 };
    }

    if (state.stage === 'appending') {
      const stopped = await appendChunks(context, bytes, state, { objectKey, sizeBytes, plan });
      if (stopped) return stopped;
      const finalized = await callX(context.caller, {
        method: 'POST',
        path: `/2/media/upload/${state.id}/finalize`,
      });
      const answer = readMediaAnswer(finalized, context);
      if ('kind' in answer) return { kind: 'failed', outcome: answer, progress: undefined };
      const step = afterProcessingInfo({ id: state.id, stage: 'processing' }, answer.processing_info);
      if (step.kind !== 'ready') return step;
      state = step.progress;
    }

    if (state.stage === 'processing') {
      const status = await callX(context.caller, {
        method: 'GET',
        path: '/2/media/upload',
        query: { command: 'STATUS', media_id: state.id },
      });
      const answer = readMediaAnswer(status, context, 'media_status');
      if ('kind' in answer) return { kind: 'failed', outcome: answer, progress: state };
      const step = afterProcessingInfo(state, answer.processing_info);
      if (step.kind !== 'ready') return step;
      state = step.progress;
    }

    if (media.alt && media.kind === 'image' && !state.alt) {
      const answer = await callX(context.caller, {
        method: 'POST',
        path: '/2/media/metadata',
        json: { id: state.id, metadata: { alt_text: { text: media.alt.slice(0, X_ALT_TEXT_MAX_CHARS) } } },
      });
      if (!answer.ok) {
        return {
          kind: 'failed',
          outcome: failureOfAnswer(answer, 'media_metadata', context.now()),
          progress: state,
        };
      }
      state = { ...state, alt: true };
    }
    return { kind: 'ready', progress: state };
  } catch (error) {
    // No answer from an upload call: nothing is posted, so it is a plain transient failure. A chunk
    // X may or may not have taken cannot be told apart, so that upload starts over next time.
    const keep = state?.stage === 'appending' ? undefined : state;
    return { kind: 'failed', outcome: failureOfError(error), progress: keep };
  }
}

/** Appends the remaining chunks; a step when it stops before the last (a failure, the time budget). */
async function appendChunks(
  context: UploadContext,
  bytes: MediaBytes,
  state: MediaProgress,
  file: { objectKey: string; sizeBytes: number; plan: SegmentPlan },
): Promise<Exclude<MediaStep, { kind: 'ready' }> | undefined> {
  const { objectKey, sizeBytes, plan } = file;
  const first = state.next ?? 0;
  for (let segment = first; segment < plan.segments; segment += 1) {
    if (segment > first && context.now() >= context.appendUntil) {
      return {
        kind: 'pending',
        progress: { ...state, next: segment },
        checkAfterSeconds: 1,
        stage: 'media_upload',
      };
    }
    const start = segment * plan.segmentBytes;
    const end = Math.min(sizeBytes, start + plan.segmentBytes);
    let chunk: Uint8Array;
    try {
      chunk = await bytes.readRange(objectKey, start, end, context.caller.signal);
    } catch {
      return {
        kind: 'failed',
        outcome: localFailure('transient', 'MEDIA_UNAVAILABLE'),
        progress: { ...state, next: segment },
      };
    }
    const form = new FormData();
    form.append('segment_index', String(segment));
    form.append('media', new Blob([chunk], { type: 'application/octet-stream' }), 'chunk');
    const answer = await callX(context.caller, {
      method: 'POST',
      path: `/2/media/upload/${state.id}/append`,
      form,
    });
    if (!answer.ok) {
      return {
        kind: 'failed',
        outcome: failureOfAnswer(answer, 'media_upload', context.now()),
        progress: undefined,
      };
    }
  }
  return undefined;
}

/** The `data` of a media answer, or the failure it stands for. */
function readMediaAnswer(
  answer: XAnswer,
  context: UploadContext,
  step: 'media_upload' | 'media_status' = 'media_upload',
): FailedOutcome | { id: string; processing_info?: ProcessingInfo | undefined } {
  if (!answer.ok) return failureOfAnswer(answer, step, context.now());
  const parsed = mediaAnswer.safeParse(answer.body);
  return parsed.success ? parsed.data.data : badAnswer(answer);
}

/** No processing_info, or `succeeded`: ready. `failed`: refused for good. Otherwise: check again later. */
function afterProcessingInfo(state: MediaProgress, info: ProcessingInfo | undefined): MediaStep {
  if (!info || info.state === 'succeeded')
    return { kind: 'ready', progress: { id: state.id, stage: 'ready' } };
  if (info.state === 'failed')
    return { kind: 'failed', outcome: processingFailure(info), progress: undefined };
  return {
    kind: 'pending',
    progress: { id: state.id, stage: 'processing' },
    checkAfterSeconds: Math.max(1, Math.ceil(info.check_after_secs ?? DEFAULT_CHECK_AFTER_SECONDS)),
    stage: 'media_processing',
  };
}
