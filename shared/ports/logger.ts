/** Structured fields on a log line: ids, counts, outcomes. Never a key, token or secret. */
export type LogFields = Record<string, unknown>;

/**
 * The one way the service logs (Powertools Logger in production, a recorder in tests). A line is
 * a message plus fields; `with` gives a logger whose every line also carries the given fields,
 * so a request's or a post's ids are stated once and appear on everything logged for it.
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  /** `fields.error`, when given, is logged as name, message and stack. */
  error(message: string, fields?: LogFields): void;
  with(fields: LogFields): Logger;
}

/** Logs nothing: for code paths whose caller did not hand in a logger (one-off scripts). */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  with: () => silentLogger,
};
