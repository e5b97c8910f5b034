import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type LocalHost, type LocalHostOptions, startLocalHost } from '../../infra/local/host.js';
import { makeAdmin } from '../../shared/services/admin.js';
import {
  type LogEntry,
  type MetricPoint,
  makeMemoryLogger,
  makeMemoryMetrics,
} from './memory-observability.js';

export interface TestHost extends LocalHost {
  admin: ReturnType<typeof makeAdmin>;
  /** What the host logged and measured (a recorder, not the console). */
  logs: LogEntry[];
  metricPoints: MetricPoint[];
  /** fetch against the host, with an optional API key. */
  call(path: string, init?: RequestInit & { apiKey?: string }): Promise<Response>;
}

/**
 * The real local host (HTTP server → API Gateway event → operation handler), on the suite's
 * DynamoDB Local with tables of its own, so test files never see each other's data.
 */
export async function startTestHost(options: Partial<LocalHostOptions> = {}): Promise<TestHost> {
  // A data folder the caller hands in (a restart test) is the caller's to remove.
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'smcp-test-'));
  const logger = makeMemoryLogger();
  const metrics = makeMemoryMetrics();
  const host = await startLocalHost({
    observability: { logger, metrics },
    dataDir,
    port: 0,
    dynamodbEndpoint: inject('dynamodbEndpoint'),
    tablePrefix: `t${Math.random().toString(36).slice(2, 10)}-`,
    authCacheTtlSeconds: 0,
    // Tests send bad keys from 127.0.0.1 on purpose; the limit's own test turns it on.
    authFailuresPerMinute: false,
    // Tests of the request side see posts stay where they put them; delivery tests turn it on.
    delivery: false,
    ...options,
  });
  const admin = makeAdmin({ tenancy: host.deps.tenancy, clock: host.deps.clock });
  return {
    ...host,
    admin,
    logs: logger.entries,
    metricPoints: metrics.points,
    call(path, init = {}) {
      const { apiKey, headers, ...rest } = init;
      return fetch(`${host.baseUrl}${path}`, {
        ...rest,
        headers: {
          ...(apiKey && { Authorization: `Bearer ${apiKey}` }),
          ...(headers as Record<string, string>),
        },
      });
    },
    async stop() {
      await host.stop();
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
