import { type Clock, systemClock } from '../../../shared/ports/clock.js';
import { type Logger, silentLogger } from '../../../shared/ports/logger.js';
import type { DeliveryMessage, PostScheduler } from '../../../shared/ports/queues.js';
import { readJsonFile, StateFileError, writeJsonAtomic } from './json-file.js';
import { makePollLoop, type PollLoop } from './poll-loop.js';

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
  let entries: Map<string, Entry> | undefined;

  /** The file is read once, before the first change or start, so a change never overwrites it unread. */
  const loaded = (): Map<string, Entry> => {
    entries ??= parseFile(options.file, readJsonFile(options.file));
    return entries;
  };

  const persist = () => {
    const schedules = [...loaded()].map(([postId, entry]) => ({
      postId,
      fireAt: new Date(entry.fireAt).toISOString(),
      message: entry.message,
    }));
    writeJsonAtomic(options.file, { version: 1, schedules } satisfies SchedulerFile);
  };

  /** A change the file did not take is undone in memory too, and the caller gets the error (as from AWS). */
  const persistOrUndo = (postId: string, previous: Entry | undefined) => {
    try {
      persist();
    } catch (error) {
      if (previous) loaded().set(postId, previous);
      else loaded().delete(postId);
      throw error;
    }
  };

  const dueAt = (entry: Entry) => Math.max(entry.fireAt, entry.retryAt ?? 0);

  /** Fires everything due, earliest first, one at a time. */
  async function fireDue(): Promise<boolean> {
    const now = clock.now();
    const due = [...loaded()]
      .filter(([, entry]) => dueAt(entry) <= now)
      .sort(([, a], [, b]) => dueAt(a) - dueAt(b));
    for (const [postId, entry] of due) {
      if (!loop.running) break;
      // Moved or removed while an earlier one was being delivered: skip it this round.
      if (loaded().get(postId) !== entry) continue;
      try {
        await options.deliver(entry.message);
      } catch (error) {
        log.warn('local scheduler: delivering a schedule failed; retrying', { postId, error });
        if (loaded().get(postId) === entry) entry.retryAt = clock.now() + retryDelayMs;
        continue;
      }
      // ActionAfterCompletion DELETE, unless upsert() replaced it during the delivery.
      if (loaded().get(postId) === entry) {
        loaded().delete(postId);
        persist();
      }
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
    onError: (error) => log.warn('local scheduler: firing schedules failed', { error }),
  });

  return {
    async upsert(postId, fireAt, message) {
      const time = fireAt.getTime();
      if (Number.isNaN(time)) throw new RangeError('fireAt is not a valid date.');
      const previous = loaded().get(postId);
      loaded().set(postId, { fireAt: time, message: deliveryMessage(message) });
      persistOrUndo(postId, previous);
      loop.wake();
    },

    async remove(postId) {
      const previous = loaded().get(postId);
      if (!previous) return;
      loaded().delete(postId);
      persistOrUndo(postId, previous);
      loop.wake();
    },

    async start() {
      loaded();
      loop.start();
    },

    async stop() {
      await loop.stop();
    },

    list() {
      return [...loaded()]
        .map(([postId, entry]) => ({ postId, fireAt: new Date(entry.fireAt), message: { ...entry.message } }))
        .sort((a, b) => a.fireAt.getTime() - b.fireAt.getTime());
    },
  };
}
