import { type Clock, systemClock } from '../../../shared/ports/clock.js';
import { type Logger, silentLogger } from '../../../shared/ports/logger.js';
import type { DeliveryMessage, PostScheduler } from '../../../shared/ports/queues.js';
import { readJsonFile, StateFileError, writeJsonAtomicAsync } from './json-file.js';
import { failureFields, makePollLoop, type PollLoop } from './poll-loop.js';

export interface LocalSchedulerOptions {
  /** The JSON file the schedules live in (under the host's data folder). */
  file: string;
  /** What a schedule's target does: on the host, send the message to the delivery queue. */
  deliver: (message: DeliveryMessage) => Promise<void>;
  /** Decides what is due; the timer itself is a real one. */
  clock?: Clock;
  /** Wait before trying a failed delivery again. Default 1 s. */
  retryDelayMs?: number;
  /**
   * Longest single sleep, so a clock that jumps (a test's fixed clock, a laptop waking up) is
   * noticed within this long. Default 1 s.
   */
  maxSleepMs?: number;
  /** Where warnings go (a delivery that failed and is retried); nowhere by default. */
  logger?: Logger;
  /** Writes the file whole (default writeJsonAtomicAsync); tests count the writes. */
  writeFile?: (path: string, value: unknown) => Promise<void>;
}

/** A stored one-time schedule, as `list()` shows it. */
export interface LocalSchedule {
  postId: string;
  fireAt: Date;
  message: DeliveryMessage;
}

/**
 * An in-process stand-in for EventBridge Scheduler's one-time schedules (one per post, named after
 * it, ActionAfterCompletion DELETE), for the local host.
 *
 * Unlike SQS messages, schedules can be days away, so they are kept in a file and survive a
 * restart: `start()` reloads them, and one whose time passed while the host was down fires at once.
 * Times are honoured to the millisecond (AWS fires somewhere within the target minute).
 */
export interface LocalScheduler extends PostScheduler {
  /** Loads the file (if not yet loaded) and starts firing what is due. */
  start(): Promise<void>;
  /** Stops firing; resolves once a delivery under way has finished. Schedules stay in the file. */
  stop(): Promise<void>;
  /** The schedules held, earliest first (tests, diagnostics). */
  list(): LocalSchedule[];
}

interface Entry {
  fireAt: number;
  message: DeliveryMessage;
  /** After a failed delivery: not before this (in memory only; after a restart it is due at once). */
  retryAt?: number;
}

interface SchedulerFile {
  version: 1;
  schedules: { postId: string; fireAt: string; message: DeliveryMessage }[];
}

/** Only the three ids, whatever else the caller's object carries (as the EventBridge adapter sends). */
function deliveryMessage(message: DeliveryMessage): DeliveryMessage {
  return { tenantId: message.tenantId, workspaceId: message.workspaceId, postId: message.postId };
}

function parseFile(path: string, raw: unknown): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  if (raw === undefined) return entries;
  const file = raw as Partial<SchedulerFile> | null;
  if (file?.version !== 1 || !Array.isArray(file.schedules)) {
    throw new StateFileError(path, { cause: new Error('expected { version: 1, schedules: [...] }') });
  }
  for (const schedule of file.schedules) {
    const fireAt = Date.parse(schedule?.fireAt);
    if (typeof schedule?.postId !== 'string' || Number.isNaN(fireAt) || !schedule.message) {
      throw new StateFileError(path, { cause: new Error(`bad schedule ${JSON.stringify(schedule)}`) });
    }
    entries.set(schedule.postId, { fireAt, message: deliveryMessage(schedule.message) });
  }
  return entries;
}

export function makeLocalScheduler(options: LocalSchedulerOptions): LocalScheduler {
  const clock = options.clock ?? systemClock;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const maxSleepMs = options.maxSleepMs ?? 1000;
  const log = options.logger ?? silentLogger;
  const writeFile = options.writeFile ?? writeJsonAtomicAsync;
  let entries: Map<string, Entry> | undefined;

  /** The file is read once, before the first change or start, so a change never overwrites it unread. */
  const loaded = (): Map<string, Entry> => {
    entries ??= parseFile(options.file, readJsonFile(options.file));
    return entries;
  };

  /** The file as it is now: taken when a write starts, so that write holds every change made before it. */
  const snapshot = (): SchedulerFile => ({
    version: 1,
    schedules: [...loaded()].map(([postId, entry]) => ({
      postId,
      fireAt: new Date(entry.fireAt).toISOString(),
      message: entry.message,
    })),
  });

  /**
   * A group commit: one write of the whole file at a time, off the event loop; every change made
   * while one is under way shares the next. A burst of 200 schedules costs a few writes, not 200
   * synchronous flushes that would stall the API and the workers of this one process. Each caller
   * still resolves only once a write holding its change is on disk (as CreateSchedule answers once
   * the schedule is stored).
   */
  let writing: Promise<void> = Promise.resolve();
  let nextWrite: Promise<void> | undefined;
  const persist = (): Promise<void> => {
    if (nextWrite) return nextWrite;
    const write = writing
      .catch(() => undefined)
      .then(() => {
        nextWrite = undefined;
        return writeFile(options.file, snapshot());
      });
    nextWrite = write;
    writing = write;
    return write;
  };

  /** A change the file did not take is undone in memory too, and the caller gets the error (as from AWS). */
  const persistOrUndo = async (postId: string, made: Entry | undefined, previous: Entry | undefined) => {
    try {
      await persist();
    } catch (error) {
      if (loaded().get(postId) === made) {
        if (previous) loaded().set(postId, previous);
        else loaded().delete(postId);
      }
      throw error;
    }
  };

  const dueAt = (entry: Entry) => Math.max(entry.fireAt, entry.retryAt ?? 0);

  /** Schedules being delivered now, by post: each fires once, however long its delivery takes. */
  const firing = new Map<string, Promise<void>>();

  /** Sends one schedule's message, then deletes it (ActionAfterCompletion DELETE). */
  async function fire(postId: string, entry: Entry): Promise<void> {
    try {
      await options.deliver(entry.message);
    } catch (error) {
      log.warn('local scheduler: delivering a schedule failed; retrying', { postId, error });
      if (loaded().get(postId) === entry) entry.retryAt = clock.now() + retryDelayMs;
      return;
    }
    // Unless upsert() replaced it during the delivery.
    if (loaded().get(postId) !== entry) return;
    loaded().delete(postId);
    await persist().catch((error: unknown) =>
      // It stays in the file: after a restart it fires once more, and the worker drops the repeat.
      log.warn('local scheduler: could not delete a fired schedule from its file', { postId, error }),
    );
  }

  /**
   * Starts everything due, earliest first, without waiting for it: in AWS each schedule is its
   * own invocation, so none waits behind another's delivery.
   */
  async function fireDue(): Promise<boolean> {
    const now = clock.now();
    const due = [...loaded()]
      .filter(([postId, entry]) => dueAt(entry) <= now && !firing.has(postId))
      .sort(([, a], [, b]) => dueAt(a) - dueAt(b));
    for (const [postId, entry] of due) {
      const delivery = fire(postId, entry).finally(() => firing.delete(postId));
      firing.set(postId, delivery);
    }
    return false;
  }

  const sleepMs = () => {
    let next = Number.POSITIVE_INFINITY;
    for (const entry of loaded().values()) next = Math.min(next, dueAt(entry));
    return Math.min(Math.max(next - clock.now(), 0), maxSleepMs);
  };

  const loop: PollLoop = makePollLoop({
    step: fireDue,
    idleDelayMs: sleepMs,
    onError: (error) =>
      log.warn(
        'local scheduler: firing schedules failed; backing off until it recovers',
        failureFields(error),
      ),
    onRecovered: (failedRounds) => log.info('local scheduler: firing schedules recovered', { failedRounds }),
  });

  return {
    async upsert(postId, fireAt, message) {
      const time = fireAt.getTime();
      if (Number.isNaN(time)) throw new RangeError('fireAt is not a valid date.');
      const previous = loaded().get(postId);
      const made: Entry = { fireAt: time, message: deliveryMessage(message) };
      loaded().set(postId, made);
      await persistOrUndo(postId, made, previous);
      loop.wake();
    },

    async remove(postId) {
      const previous = loaded().get(postId);
      if (!previous) return;
      loaded().delete(postId);
      await persistOrUndo(postId, undefined, previous);
      loop.wake();
    },

    async start() {
      loaded();
      loop.start();
    },

    async stop() {
      await loop.stop();
      await Promise.all(firing.values());
      await writing.catch(() => undefined);
    },

    list() {
      return [...loaded()]
        .map(([postId, entry]) => ({ postId, fireAt: new Date(entry.fireAt), message: { ...entry.message } }))
        .sort((a, b) => a.fireAt.getTime() - b.fireAt.getTime());
    },
  };
}
