import type { LogFields, Logger } from '../../shared/ports/logger.js';
import type { MetricDimensions, MetricName, Metrics } from '../../shared/ports/metrics.js';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: LogFields;
}

/** A Logger that keeps its lines, so a test can assert what was logged (and what never was). */
export function makeMemoryLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const make = (base: LogFields): Logger => ({
    debug: (message, fields) => entries.push({ level: 'debug', message, fields: { ...base, ...fields } }),
    info: (message, fields) => entries.push({ level: 'info', message, fields: { ...base, ...fields } }),
    warn: (message, fields) => entries.push({ level: 'warn', message, fields: { ...base, ...fields } }),
    error: (message, fields) => entries.push({ level: 'error', message, fields: { ...base, ...fields } }),
    with: (fields) => make({ ...base, ...fields }),
  });
  return Object.assign(make({}), { entries });
}

export interface MetricPoint {
  name: MetricName;
  value: number;
  unit: 'count' | 'milliseconds';
  dimensions: MetricDimensions;
}

/** A Metrics port that keeps its data points. */
export function makeMemoryMetrics(): Metrics & { points: MetricPoint[] } {
  const points: MetricPoint[] = [];
  return {
    points,
    count: (name, dimensions = {}, value = 1) => points.push({ name, value, unit: 'count', dimensions }),
    milliseconds: (name, value, dimensions = {}) =>
      points.push({ name, value, unit: 'milliseconds', dimensions }),
  };
}
