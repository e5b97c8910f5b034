import { type FakeNetworks, startFakeNetworks } from '../../../infra/fake-networks/start.js';
import type { Clock } from '../../../shared/ports/clock.js';
import { envAppCredentials, loadNetworkEndpoints } from '../../../shared/runtime/network-config.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { welcomePath } from '../../../shared/services/users/links.js';
import { makeUserAdmin } from '../../../shared/services/users/user-admin.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

/** A tenant as `admin bootstrap --owner-email` leaves it: the owner has only their one-time link yet. */
export interface NewTenant {
  tenantId: string;
  /** The workspace bootstrap made (with one sandbox account per network). */
  workspaceId: string;
  ownerEmail: string;
  /** The owner's set-password link, as the CLI prints it. */
  ownerLink: string;
  /** What bootstrap answered (its API key and sandbox accounts): for a test that sets up posts through the API. */
  bootstrap: BootstrapResult;
}

export interface DashboardHost {
  host: TestHost;
  /** The five networks' fakes, in this process: their consent pages are real pages on loopback. */
  fakes: FakeNetworks;
  /** An absolute URL of a dashboard page: `url('/workspaces')` → `http://127.0.0.1:<port>/dashboard/workspaces`. */
  url(path: string): string;
  /** A tenant and its owner, made as the admin CLI's bootstrap makes them (the same use cases). */
  bootstrapTenant(name: string, ownerEmail: string): Promise<NewTenant>;
  stop(): Promise<void>;
}

/**
 * The local host as `FAKE_NETWORKS=1 npm start` runs it (infra/local/main.ts): the fakes in-process,
 * the host pointed at them with their apps' credentials, delivery on (posts are published, webhooks
 * sent), its public base URL its own loopback address. One per browser test file.
 */
export async function startDashboardHost(options: { clock?: Clock } = {}): Promise<DashboardHost> {
  const fakes = await startFakeNetworks();
  try {
    const host = await startTestHost({
      // A test that moves the host's time (a collection hours after publishing) hands in its clock.
      ...(options.clock && { clock: options.clock }),
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
      async bootstrapTenant(name, ownerEmail) {
        const tenant = await host.admin.bootstrap({ name });
        const people = makeUserAdmin({
          users: host.users,
          tenancy: host.deps.tenancy,
          clock: host.deps.clock,
          logger: host.deps.logger,
        });
        const link = await people.createOwner({ tenantId: tenant.tenantId, email: ownerEmail });
        return {
          tenantId: tenant.tenantId,
          workspaceId: tenant.workspaceId,
          ownerEmail,
          ownerLink: `${host.baseUrl}${welcomePath(link.token)}`,
          bootstrap: tenant,
        };
      },
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
