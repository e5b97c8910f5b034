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
   * A step that threw: reported, then the loop sleeps and goes on (a poller must not die of one
   * error). Not called for a step that throws after stop() was asked.
   */
  onError: (error: unknown) => void;
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

  const run = async () => {
    while (running) {
      let again = false;
      try {
        again = await options.step();
      } catch (error) {
        // A step cut short by the shutdown (Ctrl-C reaches DynamoDB Local's Java at the same moment
        // as this process) is not news: only errors while running are reported.
        if (running) options.onError(error);
      }
      if (!running) break;
      // Even when there is more to do, let timers and I/O in between two rounds.
      if (again) await new Promise<void>((resolve) => setImmediate(resolve));
      else await sleep(options.idleDelayMs());
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
