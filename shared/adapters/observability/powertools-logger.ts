import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { LogFields, Logger } from '../../ports/logger.js';
import { redactSecrets } from './redact.js';

export const SERVICE_NAME = 'social-publishing-api';

/**
 * The Logger port over Powertools Logger: one JSON line per entry with level, timestamp, service
 * and the X-Ray trace id, at the level POWERTOOLS_LOG_LEVEL (or LOG_LEVEL) sets, INFO by default.
 * Fields are passed per line rather than appended to the shared instance, because the local host
 * serves many requests at once in one process and their ids must not bleed into each other.
 */
export function makePowertoolsLogger(options: { logLevel?: string; base?: LogFields } = {}): Logger {
  const powertools = new PowertoolsLogger({
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME,
    ...(options.logLevel && { logLevel: options.logLevel.toUpperCase() as 'INFO' }),
  });
  return withFields(powertools, options.base ?? {});
}

function withFields(powertools: PowertoolsLogger, base: LogFields): Logger {
  const line = (fields: LogFields | undefined) => redactSecrets({ ...base, ...fields });
  return {
    debug: (message, fields) => powertools.debug(message, line(fields)),
    info: (message, fields) => powertools.info(message, line(fields)),
    warn: (message, fields) => powertools.warn(message, line(fields)),
    error: (message, fields) => powertools.error(message, line(fields)),
    with: (fields) => withFields(powertools, { ...base, ...fields }),
  };
}
