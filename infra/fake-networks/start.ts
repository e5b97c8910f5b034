import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NETWORK_DEFINITIONS } from '../../shared/networks/definitions.js';
import { type FakeNetworkModule, isFakeNetworkModule, type StartedFakeNetwork } from './fake-network.js';

/** The fakes of every network that has a connector, running on loopback. */
export interface FakeNetworks {
  /**
   * What points a host at them: the endpoint variables (<NETWORK>_API_URL…) and the fake apps'
   * credentials (<APP>_CLIENT_ID / _SECRET), as `npm run fake-networks` prints them.
   */
  env: Readonly<Record<string, string>>;
  /** The networks they stand in for (display names, in the definitions' order), for a banner. */
  names: readonly string[];
  /** Their platform values, in the same order. */
  platforms: readonly string[];
  stop(): Promise<void>;
}

/**
 * Every fake folder beside this file: a sub-folder whose index.ts exports `fakeNetwork`
 * (fake-network.ts), in the order of the networks' definitions. A folder is found, not named, so a
 * new network's fake needs no line here.
 */
async function findFakeNetworks(): Promise<FakeNetworkModule[]> {
  const found: FakeNetworkModule[] = [];
  for (const entry of readdirSync(import.meta.dirname, { withFileTypes: true })) {
    const index = join(import.meta.dirname, entry.name, 'index.ts');
    if (!entry.isDirectory() || !existsSync(index)) continue;
    const loaded: unknown = await import(pathToFileURL(index).href);
    const candidate =
      typeof loaded === 'object' && loaded !== null && 'fakeNetwork' in loaded && loaded.fakeNetwork;
    if (!isFakeNetworkModule(candidate))
      throw new Error(`${index} exports no fakeNetwork (fake-network.ts): a fake folder says how it starts.`);
    found.push(candidate);
  }
  const order = NETWORK_DEFINITIONS.map((definition) => definition.platform as string);
  const unknown = found.find((fake) => !order.includes(fake.definition.platform));
  if (unknown)
    throw new Error(`A fake stands in for ${unknown.definition.platform}, which no definition declares.`);
  return found.sort((a, b) => order.indexOf(a.definition.platform) - order.indexOf(b.definition.platform));
}

/** A started fake's environment: its endpoint variables, then each app's `<APP>_CLIENT_ID` / `_SECRET`. */
function envOf(started: StartedFakeNetwork): Record<string, string> {
  const env: Record<string, string> = { ...started.endpoints };
  for (const [app, client] of Object.entries(started.apps)) {
    if (!client) continue;
    env[`${app}_CLIENT_ID`] = client.clientId;
    env[`${app}_CLIENT_SECRET`] = client.clientSecret;
  }
  return env;
}

/**
 * Starts the fakes on free loopback ports. Their apps accept any http(s) callback, so a local
 * host on any port can connect accounts through them. If one fails to start, those already
 * running are stopped before the error is thrown.
 */
export async function startFakeNetworks(): Promise<FakeNetworks> {
  const fakes = await findFakeNetworks();
  const started: StartedFakeNetwork[] = [];
  const stopAll = async () => {
    await Promise.all(started.map((fake) => fake.stop()));
  };
  try {
    for (const fake of fakes) started.push(await fake.start());
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    env: Object.assign({}, ...started.map(envOf)),
    names: fakes.map((fake) => fake.definition.displayName),
    platforms: fakes.map((fake) => fake.definition.platform),
    stop: stopAll,
  };
}
