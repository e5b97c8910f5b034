import { isDependencyOutage, outageSummary } from '../../../shared/adapters/aws/dependency-outage.js';

/** A background loop: runs a step, sleeps, runs it again, until stopped. */
export interface PollLoop {
  start(): void;
  /** Ends the loop after the step under way (if any) has finished. */
  stop(): Promise<void>;
  /** Cuts the current sleep short (or the next one, when a step is running): new work has come. */
  wake(): void;
  readonly running: boolean;
}

export interface PollLoopOptions {
  /** One round of work. True: there may be more at once (run again without sleeping). */
  step: () => Promise<boolean>;
  /** How long to sleep after a round that found nothing (asked anew each time). */
  idleDelayMs: () => number;
  /**
   * The first step that threw after one that did not: reported once, then the loop backs off and
   * goes on (a poller must not die of one error, nor log twenty stacks a second while its storage
   * is down). Not called for a step that throws after stop() was asked.
   */
  onError: (error: unknown) => void;
  /** The first step that succeeded after `failedRounds` failed ones: reported once. */
  onRecovered?: (failedRounds: number) => void;
  /** The longest sleep between two failed rounds (the sleep doubles from idleDelayMs). Default 5 s. */
  maxBackoffMs?: number;
}

/** The fields a log line gives a failed round: a summary for an outage (no stack), else the error. */
export function failureFields(error: unknown): Record<string, unknown> {
  return isDependencyOutage(error) ? outageSummary(error) : { error };
}

/**
 * The loop shared by the local stand-ins. It sleeps with real timers (never a fake clock, which
 * would never ring); what is due is decided by each stand-in from its own Clock.
 */
export function makePollLoop(options: PollLoopOptions): PollLoop {
  let running = false;
  let finished: Promise<void> = Promise.resolve();
  let wakeUp: (() => void) | undefined;
  let wokenEarly = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wokenEarly) {
        wokenEarly = false;
        resolve();
        return;
      }
      const end = () => {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(end, Math.max(0, ms));
      wakeUp = end;
    });

  const maxBackoffMs = options.maxBackoffMs ?? 5_000;
  let failedRounds = 0;

  const run = async () => {
    while (running) {
      let again = false;
      try {
        again = await options.step();
        if (failedRounds > 0) options.onRecovered?.(failedRounds);
        failedRounds = 0;
      } catch (error) {
        // A step cut short by the shutdown (Ctrl-C reaches DynamoDB Local's Java at the same moment
        // as this process) is not news: only errors while running are reported.
        if (running && failedRounds === 0) options.onError(error);
        failedRounds += 1;
      }
      if (!running) break;
      if (failedRounds > 0) {
        const idle = Math.max(1, options.idleDelayMs());
        await sleep(Math.min(maxBackoffMs, idle * 2 ** failedRounds));
      } else if (again) {
        // Even when there is more to do, let timers and I/O in between two rounds.
        await new Promise<void>((resolve) => setImmediate(resolve));
      } else await sleep(options.idleDelayMs());
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      wokenEarly = false;
      finished = run();
    },
    async stop() {
      running = false;
      wakeUp?.();
      await finished;
    },
    wake() {
      if (wakeUp) wakeUp();
      else wokenEarly = true;
    },
    get running() {
      return running;
    },
  };
}
