/** A setting missing or malformed: the process fails at its start, never on a request. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
