import type { MessageQueue, PostScheduler } from '../../shared/ports/queues.js';
import type { SecretCipher } from '../../shared/ports/secret-cipher.js';

/** The AWS services whose calls the local stand-ins take in place of the real ones. */
export type ProbedService = 'sqs' | 'scheduler' | 'kms' | 's3';

/**
 * What a benchmark (bench/cost.ts) learns from the local host: each call the deployed service
 * would make to SQS, EventBridge Scheduler, KMS or S3 (each one a billed request there), and each
 * run of a Lambda handler with its duration. Never given outside benchmarks: without it the local
 * host wraps nothing.
 */
export interface LocalProbe {
  /** One request: `sqs SendMessage delivery`, `s3 PUT`, `kms Decrypt`. */
  call(service: ProbedService, action: string, resource?: string): void;
  /** One run of a function's handler: its name (as in infra/constructs), the records it got, its time. */
  invocation(fn: string, records: number, durationMs: number): void;
}

export function probedQueue<T>(probe: LocalProbe, name: string, queue: MessageQueue<T>): MessageQueue<T> {
  return {
    send(message, options) {
      probe.call('sqs', 'SendMessage', name);
      return queue.send(message, options);
    },
  };
}

export function probedScheduler(probe: LocalProbe, scheduler: PostScheduler): PostScheduler {
  return {
    upsert(postId, fireAt, message) {
      probe.call('scheduler', 'CreateSchedule');
      return scheduler.upsert(postId, fireAt, message);
    },
    remove(postId) {
      probe.call('scheduler', 'DeleteSchedule');
      return scheduler.remove(postId);
    },
  };
}

export function probedCipher(probe: LocalProbe, cipher: SecretCipher): SecretCipher {
  return {
    encrypt(plaintext, context) {
      probe.call('kms', 'Encrypt');
      return cipher.encrypt(plaintext, context);
    },
    decrypt(ciphertext, context) {
      probe.call('kms', 'Decrypt');
      return cipher.decrypt(ciphertext, context);
    },
  };
}

/** A handler timed as one Lambda invocation of `fn`, handed `event.Records`. */
export function probedHandler<E extends { Records: readonly unknown[] }, R>(
  probe: LocalProbe,
  fn: string,
  handler: (event: E) => Promise<R>,
): (event: E) => Promise<R> {
  return async (event) => {
    const started = performance.now();
    try {
      return await handler(event);
    } finally {
      probe.invocation(fn, event.Records.length, performance.now() - started);
    }
  };
}
