import type { IncomingHttpHeaders } from 'node:http';
import type { FakeInstagramControlState } from './control.js';
import type { Reply } from './http.js';
import type { FakeInstagramStore, FakeInstagramUser, FakeToken } from './store.js';

/** The fake's registered Meta app (Instagram Login). */
export interface FakeInstagramApp {
  clientId: string;
  clientSecret: string;
  /** Valid OAuth redirect URIs (exact match); undefined accepts any absolute http(s) URL. */
  redirectUris?: readonly string[];
}

export interface FakeInstagramSettings {
  /** Short-lived tokens: 1 hour; long-lived: 60 days (instagram.md §4). */
  shortLivedSeconds: number;
  longLivedSeconds: number;
  /** Meta refreshes a long-lived token only once it is 24 hours old. */
  refreshMinAgeMs: number;
  codeLifetimeMs: number;
  /** Largest image (8 MiB, JPEG only) and video (300 MB) the fake fetches. */
  maxImageBytes: number;
  maxVideoBytes: number;
  /** Containers expire unpublished after 24 hours. */
  containerLifetimeMs: number;
  maxCaption: number;
  now: () => number;
}

export interface RouteContext {
  store: FakeInstagramStore;
  control: FakeInstagramControlState;
  app: FakeInstagramApp;
  settings: FakeInstagramSettings;
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
  user: FakeInstagramUser;
}

export type Handler<C> = (context: C) => Reply | Promise<Reply>;
