import type { Hono } from 'hono';
import type { DashboardEnv } from '../env.js';

/** Placeholder until its pages are built (issue 14). */
export function registerPolicyRoutes(_app: Hono<DashboardEnv>): void {}
