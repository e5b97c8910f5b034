import type { NetworkDefinition } from '../../shared/networks/definition.js';

/** A fake app's client, as the network's developer portal would show it. */
export interface FakeAppClient {
  clientId: string;
  clientSecret: string;
}

type EndpointNameOf<D extends NetworkDefinition> = keyof D['endpoints'] & string;
type AppOf<D extends NetworkDefinition> = D['apps'][number];

/** A network's fake once started: what points a host at it, and how to stop it. */
export interface StartedFakeNetwork<D extends NetworkDefinition = NetworkDefinition> {
  /** Every address its definition declares, at the fake: a host's endpoint variables. */
  endpoints: Readonly<Record<EndpointNameOf<D>, string>>;
  /** The clients of the apps the fake knows, by the definition's app names (<APP>_CLIENT_ID / _SECRET). */
  apps: Readonly<Partial<Record<AppOf<D>, FakeAppClient>>>;
  stop(): Promise<void>;
}

/**
 * How a network's fake starts for a whole host (`npm run fake-networks`, `FAKE_NETWORKS=1 npm start`):
 * each fake folder's index.ts exports one as `fakeNetwork`, and start.ts finds them by reading its
 * sub-folders, so adding a network's fake touches no shared file.
 */
export interface FakeNetworkModule<D extends NetworkDefinition = NetworkDefinition> {
  /** The network it stands in for: its endpoints and apps type what `start` must answer. */
  definition: D;
  /** Starts it on a free loopback port, its apps accepting any http(s) callback. */
  start(): Promise<StartedFakeNetwork<D>>;
}

/** Checks a fake's launcher against its network's definition (every endpoint answered). */
export function defineFakeNetwork<const D extends NetworkDefinition>(
  module: FakeNetworkModule<D>,
): FakeNetworkModule<D> {
  return module;
}

/** What a dynamically imported index.ts must export to count as a fake (import() gives no types). */
export function isFakeNetworkModule(value: unknown): value is FakeNetworkModule {
  if (typeof value !== 'object' || value === null) return false;
  if (!('start' in value) || typeof value.start !== 'function') return false;
  if (!('definition' in value) || typeof value.definition !== 'object' || value.definition === null)
    return false;
  const { definition } = value;
  return (
    'platform' in definition &&
    typeof definition.platform === 'string' &&
    'displayName' in definition &&
    typeof definition.displayName === 'string'
  );
}
