import { join } from 'node:path';
import { functionEntry } from '../infra/paths.js';
import { type SplitBuilt, splitBundle, splitTopInputs } from './split-bundle.js';

/**
 * The dashboard function as the stack builds it (infra/constructs/dashboard-endpoint.ts:
 * functions/dashboard.ts with code splitting, infra/constructs/lambda-bundling.ts).
 */
export type DashboardBuilt = SplitBuilt;

/** Builds the dashboard function into `scratch/dashboard-split`. */
export function dashboardBundle(scratch: string): Promise<DashboardBuilt> {
  return splitBundle(functionEntry('dashboard'), join(scratch, 'dashboard-split'));
}

/** The inputs that weigh most in what a cold start loads, by package (or folder of ours): [name, bytes]. */
export function dashboardTopInputs(built: DashboardBuilt, count: number): [string, number][] {
  return splitTopInputs(built, count);
}
