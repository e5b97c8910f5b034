import { expect, it } from 'vitest';
import { startFakeNetworks } from '../../../infra/fake-networks/start.js';
import { APP_IDS, ENDPOINT_DEFAULTS, NETWORK_DEFINITIONS } from '../../../shared/networks/definitions.js';

/**
 * The launcher behind `npm run fake-networks` and `FAKE_NETWORKS=1 npm start` finds the fakes by
 * reading its sub-folders: every network's fake must be found, point every endpoint variable of the
 * definitions at loopback, give every app a client, and stop.
 */
it('starts every network’s fake, found by folder, in the definitions’ order, and stops them', async () => {
  const fakes = await startFakeNetworks();
  const origins = new Set<string>();
  try {
    expect(fakes.names).toEqual(NETWORK_DEFINITIONS.map((definition) => definition.displayName));
    expect(fakes.platforms).toEqual(NETWORK_DEFINITIONS.map((definition) => definition.platform));

    const endpointNames = Object.keys(ENDPOINT_DEFAULTS);
    const appVariables = APP_IDS.flatMap((app) => [`${app}_CLIENT_ID`, `${app}_CLIENT_SECRET`]);
    expect(Object.keys(fakes.env).sort()).toEqual([...endpointNames, ...appVariables].sort());
    for (const name of endpointNames) {
      const url = new URL(fakes.env[name] ?? '');
      expect(url.hostname, name).toBe('127.0.0.1');
      origins.add(url.origin);
    }
    for (const name of appVariables) expect(fakes.env[name], name).toMatch(/\S{8,}/);

    // Each fake's server answers (any status: the path is not one of its routes).
    for (const origin of origins) expect((await fetch(`${origin}/no-such-route`)).status).toBeGreaterThan(0);
  } finally {
    await fakes.stop();
  }
  for (const origin of origins) await expect(fetch(`${origin}/no-such-route`)).rejects.toThrow();
});
