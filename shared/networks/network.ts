import type { Platform } from '../domain/platforms.js';
import type { AppCredentials, NetworkApp } from '../ports/app-credentials.js';
import type { Connector } from '../ports/connector.js';
import type { OAuthProvider } from '../ports/network-oauth.js';
import type { NetworkEndpoints } from '../runtime/network-config.js';

/** A developer app a network's accounts can be connected through, and the OAuth of that app. */
export interface NetworkAppClient {
  app: NetworkApp;
  oauth: OAuthProvider;
}

/** One real network: its OAuth and its publishing connector (shared/networks/<network>/). */
export interface Network {
  platform: Platform;
  /**
   * Whose client credentials it uses (Google's app serves YouTube): the default app of a connect,
   * and the app of every account that records none (connected before apps were recorded).
   */
  app: NetworkApp;
  oauth: OAuthProvider;
  /**
   * Other apps the network can be connected through, each with its own OAuth (LinkedIn's
   * Community Management app beside its member app); an account records which it was.
   */
  otherApps?: readonly NetworkAppClient[];
  connector: Connector;
}

/** What a network is built from, in both composition roots (AWS and the local host). */
export interface NetworkDeps {
  endpoints: NetworkEndpoints;
  /**
   * The app's client credentials, read when a call needs them (a code exchange, a refresh, a
   * revoke): from Secrets Manager in AWS, so they are fetched lazily and cached by the source.
   * Undefined when the app is not configured.
   */
  appCredentials(): Promise<AppCredentials | undefined>;
  /** Any app's client credentials, for a network with `otherApps`; absent: they have none. */
  credentialsOf?(app: NetworkApp): Promise<AppCredentials | undefined>;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

export type NetworkFactory = (deps: NetworkDeps) => Network;
