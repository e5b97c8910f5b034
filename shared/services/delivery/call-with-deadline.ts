import type { Logger } from '../../ports/logger.js';

/** How long a connector whose signal was aborted has to hand back its own outcome. */
export const ABORT_GRACE_MS = 1000;

/** The worker stopped waiting for the network (its time-out). */
export class ConnectorTimeoutError extends Error {
  constructor(ms: number) {
    super(`The network did not answer within ${Math.round(ms / 1000)} s.`);
    this.name = 'ConnectorTimeoutError';
  }
}

/**
 * Calls a connector with a signal aborted after `timeoutMs` (or when `stopWhen` aborts: the worker
 * lost its claim); a call that throws, or that has not answered ABORT_GRACE_MS after its signal
 * aborted, answers `onGiveUp(reason)` instead (the outcome is then unknown: whatever the call still
 * does, nobody waits for it). Once the signal aborts, a connector stops at once and may still say
 * what it had finished (its progress, when it sent the post): its answer is awaited that moment.
 */
export async function callWithDeadline<T>(
  timeoutMs: number,
  call: (signal: AbortSignal) => Promise<T>,
  onGiveUp: (reason: unknown) => T,
  log: Logger,
  stopWhen?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const stopWaiting = () => controller.abort(stopWhen?.reason);
  stopWhen?.addEventListener('abort', stopWaiting, { once: true });
  const timer = setTimeout(() => controller.abort(new ConnectorTimeoutError(timeoutMs)), timeoutMs);
  try {
    const answer = call(controller.signal).catch((error: unknown): T => {
      log.warn('the connector threw; the outcome is unknown', { error });
      return onGiveUp(controller.signal.aborted ? controller.signal.reason : error);
    });
    const gaveUp = new Promise<T>((resolve) => {
      controller.signal.addEventListener(
        'abort',
        () => {
          const grace = setTimeout(() => resolve(onGiveUp(controller.signal.reason)), ABORT_GRACE_MS);
          void answer.then((outcome) => {
            clearTimeout(grace);
            resolve(outcome);
          });
        },
        { once: true },
      );
    });
    return await Promise.race([answer, gaveUp]);
  } finally {
    clearTimeout(timer);
    stopWhen?.removeEventListener('abort', stopWaiting);
  }
}

/** A call given up on: a time-out, or no answer. */
export function deadlineOutcome(reason: unknown): { kind: 'unknown'; code: string; message: string } {
  if (reason instanceof ConnectorTimeoutError) {
    return { kind: 'unknown', code: 'PLATFORM_TIMEOUT', message: reason.message };
  }
  return {
    kind: 'unknown',
    code: 'PLATFORM_NO_ANSWER',
    message: 'The network call ended without an answer.',
  };
}
