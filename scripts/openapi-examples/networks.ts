import type { NetworkMetrics } from '../../shared/networks/definition.js';
import { NETWORK_DEFINITIONS, type PlatformId } from '../../shared/networks/definitions.js';

type Definition = (typeof NETWORK_DEFINITIONS)[number];

function firstNetwork(
  role: string,
  fits: (definition: Definition) => boolean,
  among: readonly Definition[] = NETWORK_DEFINITIONS,
): PlatformId {
  const found = among.find(fits);
  if (!found) throw new Error(`No network is ${role}: the OpenAPI examples need one.`);
  return found.platform;
}

const takes = (definition: Definition, postType: string) =>
  (definition.postTypes as readonly string[]).includes(postType);

/** The first network of the definitions: the recording host holds its default app's credentials. */
const connectable = firstNetwork('listed', () => true);
const unconfigured = firstNetwork(
  'without app credentials',
  (definition) => definition.platform !== connectable,
);
const threads = firstNetwork('taking threads', (definition) => takes(definition, 'thread'));
const documents = firstNetwork('taking documents', (definition) => takes(definition, 'document'));
const mediaOnly = firstNetwork(
  'taking images but no text posts',
  (definition) => takes(definition, 'image') && !takes(definition, 'text'),
);
/** Its metrics are paid per read, so a workspace collects them only when told to (off by default). */
const paidMetrics = firstNetwork('with metrics paid per read', (definition) => {
  const metrics: NetworkMetrics | undefined = 'metrics' in definition ? definition.metrics : undefined;
  return metrics?.paidPerRead === true;
});
const posting: readonly PlatformId[] = [threads, documents];
const disconnected = firstNetwork(
  'left unused by the posts',
  (definition) => !posting.includes(definition.platform),
  [...NETWORK_DEFINITIONS].reverse(),
);

/**
 * The networks the OpenAPI examples' scenario drives, picked by what they are rather than by name,
 * so that a new network changes neither script (the recorded examples follow the definitions' order).
 */
export const EXAMPLE_NETWORKS = {
  /** Connecting it answers a consent URL: the recording host has its app (record-openapi-examples.ts). */
  connectable,
  /** Connecting it answers 409 network_not_configured: the recording host has no app for it. */
  unconfigured,
  /** Its text limit is short and a long text would be a thread: the rule-breaking and validation examples. */
  threads,
  /** Its text limit is long: the scheduled post that is read, edited and cancelled, and its account. */
  documents,
  /** It takes no post without media: the approval workspace's image post. */
  mediaOnly,
  /** Its account's metrics are not collected by the workspace: the metrics_unavailable example. */
  paidMetrics,
  /**
   * The account disconnected: the last network whose account the main workspace posts to through
   * no other role, so disconnecting it leaves every later call its account.
   */
  disconnected,
} as const;
