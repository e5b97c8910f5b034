import type { DeliveryDeps } from '../delivery/delivery-deps.js';

/** What the metrics collection works with: the delivery worker's ports (it runs in the worker). */
export type MetricsDeps = Pick<
  DeliveryDeps,
  | 'posts'
  | 'tenancy'
  | 'workspaces'
  | 'secrets'
  | 'networks'
  | 'clock'
  | 'metrics'
  | 'connectorFor'
  | 'quotas'
  | 'dailyQuotas'
>;
