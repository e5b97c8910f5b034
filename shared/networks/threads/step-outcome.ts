import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import { failed } from '../publish/failed-outcome.js';
import { type FailedOutcome, ThreadsStepFailed } from './errors.js';
import type { ItemStep } from './publish-item.js';

/** What a post's or a comment's Threads call answers, before its progress is added. */
export type StepOutcome =
  | FailedOutcome
  | { kind: 'unknown'; code: string; message: string }
  | { kind: 'pending'; progress: Record<string, never>; checkAfterSeconds: number; stage: string };

/** A publishItem step that did not post (yet): processing, refused, or of unknown outcome. */
export function unpostedOutcome(step: Exclude<ItemStep, { kind: 'posted' }>): StepOutcome {
  switch (step.kind) {
    case 'pending':
      return {
        kind: 'pending',
        progress: {},
        checkAfterSeconds: step.checkAfterSeconds,
        stage: 'container_processing',
      };
    case 'failed':
      return step.outcome;
    case 'unknown':
      return { kind: 'unknown', code: step.code, message: step.message };
  }
}

/** Our words, for what was being made, when Threads did not answer. */
export interface UnansweredWords {
  /** threads_publish was sent: it may have published. */
  publish: string;
  /** Only the container was being made: nothing can show. */
  prepare: string;
}

/**
 * What a publishItem call that threw comes to. A step refused before anything new was sent keeps
 * its own outcome; once threads_publish was sent, the outcome is unknown (the look-up settles it,
 * never a blind retry); a container made without an answer is never published (it expires on its
 * own), so that, a request that never left, and a media URL that could not be made, may be retried.
 */
export function thrownOutcome(error: unknown, publishSent: boolean, words: UnansweredWords): StepOutcome {
  if (error instanceof ThreadsStepFailed) return error.outcome;
  if (publishSent) {
    const aborted = error instanceof NoAnswerError && error.code === 'ABORTED';
    return {
      kind: 'unknown',
      code: aborted ? 'PLATFORM_TIMEOUT' : 'PLATFORM_NO_ANSWER',
      message: words.publish,
    };
  }
  if (error instanceof RequestNotSentError) {
    return failed('transient', 'PLATFORM_UNREACHABLE', 'Threads could not be reached.');
  }
  if (error instanceof NoAnswerError) return failed('transient', 'PLATFORM_NO_ANSWER', words.prepare);
  return failed('transient', 'MEDIA_URL_FAILED', 'A media URL could not be made for Threads.');
}
