import type { IncomingHttpHeaders } from 'node:http';
import type { FakeFacebookControlState } from './control.js';
import type { Reply } from './http.js';
import type { FakeFacebookSettings } from './settings.js';
import type { FakeFacebookStore, FakeToken } from './store.js';

export type { FakeFacebookSettings } from './settings.js';

/** The fake's registered Meta app (Facebook Login). */
export interface FakeFacebookApp {
  clientId: string;
  clientSecret: string;
  /** Valid OAuth redirect URIs (exact match); undefined accepts any absolute http(s) URL. */
  redirectUris?: readonly string[];
}

export interface RouteContext {
  store: FakeFacebookStore;
  control: FakeFacebookControlState;
  app: FakeFacebookApp;
  settings: FakeFacebookSettings;
  baseUrl: string;
  url: URL;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Query parameters, then form fields (a POST's): Graph reads both. */
  fields: URLSearchParams;
}

export interface ApiContext extends RouteContext {
  token: FakeToken;
}

export type Handler<C> = (context: C) => Reply | Promise<Reply>;
