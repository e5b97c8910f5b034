import type { IncomingHttpHeaders } from 'node:http';
import type { FakeThreadsControlState } from './control.js';
import type { Reply } from './http.js';
import type { FakeThreadsStore, FakeThreadsUser, FakeToken } from './store.js';

/** The fake's registered Meta app (the Threads use case: its own app id and secret). */
export interface FakeThreadsApp {
  clientId: string;
  clientSecret: string;
  /** Valid OAuth redirect URIs (exact match); undefined accepts any absolute http(s) URL. */
  redirectUris?: readonly string[];
}

export interface FakeThreadsSettings {
  /** Short-lived tokens: 1 hour; long-lived: 60 days (threads.md §3). */
  shortLivedSeconds: number;
  longLivedSeconds: number;
  /** Meta refreshes a long-lived token only once it is 24 hours old. */
  refreshMinAgeMs: number;
  /** Codes live an hour and are single use. */
  codeLifetimeMs: number;
  maxImageBytes: number;
  maxVideoBytes: number;
  /** Containers expire unpublished after 24 hours. */
  containerLifetimeMs: number;
  now: () => number;
}

export interface RouteContext {
  store: FakeThreadsStore;
  control: FakeThreadsControlState;
  app: FakeThreadsApp;
  settings: FakeThreadsSettings;
  url: URL;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Query parameters, then form fields (a POST's): Graph reads both. */
  fields: URLSearchParams;
}

export interface ApiContext extends RouteContext {
  token: FakeToken;
  user: FakeThreadsUser;
}

export type Handler<C> = (context: C) => Reply | Promise<Reply>;
