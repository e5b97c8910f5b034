import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A message as the journal keeps it: enough to hand it over again after a restart. */
export interface JournaledMessage {
  messageId: string;
  body: string;
  md5OfBody: string;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
  /** True once received and not yet deleted or made visible by a restart: in flight. */
  received?: boolean;
}

/**
 * One line of the journal. Every kind sets state by message id, so replaying a line twice (after
 * a compaction that already holds it) changes nothing.
 */
type JournalLine =
  | { op: 'send'; message: JournaledMessage }
  | { op: 'receive'; messageId: string; receiveCount: number; visibleAt: number; firstReceivedAt: number }
  | { op: 'delete'; messageId: string };

export interface QueueJournal {
  /** The messages held when the journal was opened, in send order; in-flight ones visible at `now`. */
  readonly recovered: JournaledMessage[];
  /** Resolves once the line is in the file (handed to the kernel: it survives a SIGKILL). */
  sent(message: JournaledMessage): Promise<void>;
  received(message: JournaledMessage): void;
  deleted(messageId: string): void;
  /** Writes what is pending and closes the file. */
  close(): Promise<void>;
}

export interface QueueJournalOptions {
  file: string;
  now: number;
  /** The live messages now, for a compaction (the queue's own map). */
  snapshot: () => Iterable<JournaledMessage>;
  /** Told of a write that failed (the queue goes on in memory; the next write tries again). */
  onWriteError: (error: unknown) => void;
  /** Rewrites the file once it holds this many lines more than live messages. Default 10,000. */
  compactAfterLines?: number;
}

function replay(text: string, now: number): JournaledMessage[] {
  const messages = new Map<string, JournaledMessage>();
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let entry: JournalLine;
    try {
      entry = JSON.parse(line) as JournalLine;
    } catch (error) {
      // Only the last line may be torn (the process died while writing it); anything else is not ours.
      if (index >= lines.length - 2) break;
      throw new Error(`The queue journal has a line that is not JSON (line ${index + 1}).`, { cause: error });
    }
    if (entry.op === 'send') messages.set(entry.message.messageId, { ...entry.message });
    else if (entry.op === 'delete') messages.delete(entry.messageId);
    else {
      const message = messages.get(entry.messageId);
      if (!message) continue;
      message.receiveCount = entry.receiveCount;
      message.visibleAt = entry.visibleAt;
      message.firstReceivedAt = entry.firstReceivedAt;
      message.received = true;
    }
  }
  // The process that received them is gone: as its Lambda would have, it lets them go at once.
  for (const message of messages.values()) {
    if (message.received) {
      message.visibleAt = Math.min(message.visibleAt, now);
      message.received = false;
    }
  }
  return [...messages.values()];
}

function readIfPresent(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

function rewrite(file: string, messages: Iterable<JournaledMessage>) {
  const lines: string[] = [];
  for (const message of messages) lines.push(JSON.stringify({ op: 'send', message } satisfies JournalLine));
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, lines.length > 0 ? `${lines.join('\n')}\n` : '');
  renameSync(temporary, file);
  return lines.length;
}

/**
 * An append-only file of what happened to a local queue's messages (sent, received, deleted), so a
 * local host that is stopped, crashes or is killed with SIGKILL hands every message it held over
 * again after its restart, delays and receive counts kept. Lines written in the same turn go out
 * in one write; a send resolves only once its line is written. The file is rewritten with the
 * live messages alone at open and whenever it has grown far past them.
 */
export function openQueueJournal(options: QueueJournalOptions): QueueJournal {
  mkdirSync(dirname(options.file), { recursive: true });
  const recovered = replay(readIfPresent(options.file), options.now);
  let lines = rewrite(options.file, recovered);
  const compactAfterLines = options.compactAfterLines ?? 10_000;

  let handle: Promise<FileHandle> = open(options.file, 'a');
  let pending: string[] = [];
  let waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let flushing: Promise<void> = Promise.resolve();
  let scheduled = false;

  const compactIfLong = async () => {
    if (lines < compactAfterLines) return;
    let live = 0;
    for (const _ of options.snapshot()) live += 1;
    if (lines - live < compactAfterLines) return;
    await (await handle).close();
    lines = rewrite(options.file, options.snapshot());
    handle = open(options.file, 'a');
  };

  const flush = async () => {
    scheduled = false;
    const batch = pending;
    const settle = waiting;
    pending = [];
    waiting = [];
    if (batch.length === 0) return;
    try {
      await (await handle).appendFile(`${batch.join('\n')}\n`);
      lines += batch.length;
      for (const { resolve } of settle) resolve();
      await compactIfLong();
    } catch (error) {
      for (const { reject } of settle) reject(error);
      options.onWriteError(error);
    }
  };

  const write = (line: JournalLine, durable?: { resolve: () => void; reject: (error: unknown) => void }) => {
    pending.push(JSON.stringify(line));
    if (durable) waiting.push(durable);
    if (scheduled) return;
    scheduled = true;
    // After the lines of this turn have joined: one write for all of them, one at a time.
    flushing = flushing.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(flush);
  };

  return {
    recovered,
    sent: (message) =>
      new Promise<void>((resolve, reject) => write({ op: 'send', message }, { resolve, reject })),
    received(message) {
      write({
        op: 'receive',
        messageId: message.messageId,
        receiveCount: message.receiveCount,
        visibleAt: message.visibleAt,
        firstReceivedAt: message.firstReceivedAt ?? message.sentAt,
      });
    },
    deleted: (messageId) => write({ op: 'delete', messageId }),
    async close() {
      // Lines written while waiting chain another flush: wait until none is left.
      while (scheduled || pending.length > 0) await flushing;
      await flushing;
      await (await handle).close();
    },
  };
}
