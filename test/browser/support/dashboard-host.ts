import { type FakeNetworks, startFakeNetworks } from '../../../infra/fake-networks/start.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../../shared/runtime/network-config.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

export interface DashboardHost {
  host: TestHost;
  /** The five networks' fakes, in this process: their consent pages are real pages on loopback. */
  fakes: FakeNetworks;
  /** An absolute URL of a dashboard page: `url('/workspaces')` → `http://127.0.0.1:<port>/dashboard/workspaces`. */
  url(path: string): string;
  stop(): Promise<void>;
}

/**
 * The local host as `FAKE_NETWORKS=1 npm start` runs it (infra/local/main.ts): the fakes in-process,
 * the host pointed at them with their apps' credentials, delivery on (posts are published, webhooks
 * sent), its public base URL its own loopback address. One per browser test file.
 */
export async function startDashboardHost(): Promise<DashboardHost> {
  const fakes = await startFakeNetworks();
  try {
    const host = await startTestHost({
      networkEndpoints: loadNetworkEndpoints(fakes.env),
      appCredentials: envAppCredentials(fakes.env),
      delivery: {
        sandboxLatencyMs: { min: 5, max: 20 },
        tokenRefreshIntervalMs: false,
      },
    });
    return {
      host,
      fakes,
      url: (path) => `${host.baseUrl}/dashboard${path}`,
      async stop() {
        await host.stop();
        await fakes.stop();
      },
    };
  } catch (error) {
    await fakes.stop();
    throw error;
  }
}
