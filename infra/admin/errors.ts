/**
 * Failures the CLI expects and explains in one line, apart from the domain's AppError. Anything
 * else is a bug or an outage and is reported as unexpected.
 */

/** The command line itself is wrong: exit 2, with a pointer to the usage text. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The tables cannot be found or reached: no local host, no such stack, a stack without outputs. */
export class TargetError extends Error {
  readonly code = 'target_unavailable';
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}
