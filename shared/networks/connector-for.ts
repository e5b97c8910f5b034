import type { Account } from '../domain/tenancy.js';
import type { Connector } from '../ports/connector.js';
import type { Networks } from './registry.js';

/**
 * Which connector publishes for an account: sandbox accounts go to the sandbox network, the others
 * to their network's connector (registry.ts). A platform with no connector yet has none, and its
 * posts fail with connector_unavailable.
 */
export function makeConnectorFor(connectors: {
  sandbox: Connector;
  networks?: Networks;
}): (account: Account) => Connector | undefined {
  return (account) =>
    account.sandbox ? connectors.sandbox : connectors.networks?.get(account.platform)?.connector;
}
