import type { Network, NetworkAppClient } from './network.js';

/** Every app a network can be connected through, its default app first. */
export function appClientsOf(network: Network): readonly NetworkAppClient[] {
  return [{ app: network.app, oauth: network.oauth }, ...(network.otherApps ?? [])];
}

/**
 * The app an account's tokens were issued to, with its OAuth: the one the account records, or the
 * network's default app for an account that records none. Undefined for an app the network no
 * longer has: nothing can refresh or revoke those tokens.
 */
export function appClientOf(network: Network, recorded: string | undefined): NetworkAppClient | undefined {
  if (recorded === undefined) return { app: network.app, oauth: network.oauth };
  return appClientsOf(network).find((client) => client.app === recorded);
}
