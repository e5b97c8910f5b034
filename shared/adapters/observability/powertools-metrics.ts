import { MetricUnit, Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import type { MetricDimensions, Metrics } from '../../ports/metrics.js';
import { SERVICE_NAME } from './powertools-logger.js';

export const METRICS_NAMESPACE = 'SocialPublishing';

/**
 * The Metrics port over Powertools Metrics (CloudWatch embedded metric format). Each data point
 * is its own EMF line, flushed at once: dimensions differ from one point to the next (platform,
 * error code), and nothing is left buffered when a handler throws. POWERTOOLS_METRICS_DISABLED or
 * POWERTOOLS_DEV turns the output off (the local host does).
 */
export function makePowertoolsMetrics(): Metrics {
  const metrics = new PowertoolsMetrics({
    namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME,
  });
  const serviceName = process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME;
  const emit = (
    name: string,
    unit: (typeof MetricUnit)[keyof typeof MetricUnit],
    value: number,
    dimensions: MetricDimensions = {},
  ) => {
    const single = metrics.singleMetric();
    // Two dimension sets in one line: the service alone (the total an alarm watches) and the
    // service with this point's own dimensions (the slice a dashboard shows).
    single.addDimensions({ service: serviceName });
    if (Object.keys(dimensions).length > 0) single.addDimensions(dimensions);
    single.addMetric(name, unit, value);
  };
  return {
    count: (name, dimensions, value = 1) => emit(name, MetricUnit.Count, value, dimensions),
    milliseconds: (name, value, dimensions) => emit(name, MetricUnit.Milliseconds, value, dimensions),
  };
}
