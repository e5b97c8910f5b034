import type { Account } from '../domain/tenancy.js';
import type { Connector } from '../ports/connector.js';

/**
 * Which connector publishes for an account: sandbox accounts go to the sandbox network. Real
 * networks' connectors join here as they are built; until then an account of a real network has
 * none, and its posts fail with connector_unavailable.
 */
export function makeConnectorFor(connectors: {
  sandbox: Connector;
}): (account: Account) => Connector | undefined {
  return (account) => (account.sandbox ? connectors.sandbox : undefined);
}
