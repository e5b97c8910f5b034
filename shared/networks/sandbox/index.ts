export {
  makeSandboxConnector,
  postTexts,
  SANDBOX_RETRY_AFTER_SECONDS,
  type SandboxConnectorOptions,
} from './connector.js';
export {
  parseSandboxDirectives,
  SANDBOX_DEFAULT_SLOW_MS,
  SANDBOX_MAX_SLOW_MS,
  type SandboxDirectives,
} from './directives.js';
export { type SandboxPostIdentity, sandboxPostIdentity } from './identifiers.js';
export { makeMemorySandboxLedger, type SandboxLedger, type SandboxPublication } from './ledger.js';
export { makeSandboxMetricsReaders, sandboxPostMetrics } from './metrics.js';
export {
  type LatencyRange,
  NETWORK_PROFILES,
  type NetworkProfile,
  SANDBOX_DEFAULT_LATENCY_MS,
  SANDBOX_GIF_SIZE_LIMITS,
  SANDBOX_MEDIA_SIZE_LIMITS,
} from './profiles.js';
export type { SandboxSimulation } from './simulation.js';
