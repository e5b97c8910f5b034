import { toDelaySeconds } from '../../../shared/adapters/sqs/sqs-queue.js';
import type { DeliveryMessage, MessageQueue, PostScheduler } from '../../../shared/ports/queues.js';

export interface SentMessage<T> {
  message: T;
  /** As SQS would hold it (rounded up to whole seconds); absent when the sender gave none. */
  delaySeconds?: number;
  /** The trace the message continues (SQS's AWSTraceHeader); absent when the sender gave none. */
  trace?: string;
}

/**
 * A MessageQueue that keeps what was sent, in order. Like SQS it refuses a delay outside 0–900 s
 * (RangeError, as the SQS adapter does) and copies the message, as serialising it would.
 */
export class RecordingQueue<T> implements MessageQueue<T> {
  readonly sent: SentMessage<T>[] = [];

  async send(message: T, options?: { delaySeconds?: number; trace?: string }): Promise<void> {
    const delaySeconds =
      options?.delaySeconds === undefined ? undefined : toDelaySeconds(options.delaySeconds);
    this.sent.push({
      message: structuredClone(message),
      ...(delaySeconds !== undefined && { delaySeconds }),
      ...(options?.trace !== undefined && { trace: options.trace }),
    });
  }

  /** Just the messages, in the order they were sent. */
  messages(): T[] {
    return this.sent.map(({ message }) => message);
  }
}

export type ScheduleCall =
  | { op: 'upsert'; postId: string; fireAt: string; message: DeliveryMessage }
  | { op: 'remove'; postId: string };

/** A PostScheduler that keeps its calls and the schedules now in place (one per post, as in AWS). */
export class RecordingPostScheduler implements PostScheduler {
  readonly calls: ScheduleCall[] = [];
  /** Post id → when its schedule fires (ISO 8601) and what it sends. */
  readonly schedules = new Map<string, { fireAt: string; message: DeliveryMessage }>();

  async upsert(postId: string, fireAt: Date, message: DeliveryMessage): Promise<void> {
    const entry = { fireAt: fireAt.toISOString(), message: structuredClone(message) };
    this.calls.push({ op: 'upsert', postId, ...entry });
    this.schedules.set(postId, entry);
  }

  async remove(postId: string): Promise<void> {
    this.calls.push({ op: 'remove', postId });
    this.schedules.delete(postId);
  }
}
