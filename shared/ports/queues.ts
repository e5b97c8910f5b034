/** What the delivery queue carries: which post to try, never the post itself (it is read fresh). */
export interface DeliveryMessage {
  tenantId: string;
  workspaceId: string;
  postId: string;
  /**
   * The post's account and stored media when the message was made: the worker reads them with the
   * post in one round trip. Hints only: the post as read decides (an older message has none).
   */
  accountId?: string;
  mediaIds?: string[];
  /**
   * The trace header of the API request that last wrote the post (Post.trace): the worker's lines
   * name its trace id, and its network call is annotated with it (docs/operating.md "Traces").
   */
  trace?: string;
}

/** A queue of JSON messages (SQS in AWS, an in-process queue on the local host). */
export interface MessageQueue<T> {
  /**
   * `delaySeconds` 0–900 (SQS's own limit): the message is invisible until then. `trace`, an X-Ray
   * trace header, is the trace the message continues (SQS's AWSTraceHeader), instead of the
   * sender's own invocation's.
   */
  send(message: T, options?: { delaySeconds?: number; trace?: string }): Promise<void>;
}

/** One-time schedules that put a delivery message on the delivery queue at a given time. */
export interface PostScheduler {
  /** Creates or moves the post's schedule (one per post, named after it). */
  upsert(postId: string, fireAt: Date, message: DeliveryMessage): Promise<void>;
  /** Removes it; nothing happens when there is none. */
  remove(postId: string): Promise<void>;
}
