import type { IncomingHttpHeaders } from 'node:http';
import type { FakeXControlState } from './control.js';
import type { Reply } from './http.js';
import type { FakeAccessToken, FakeXStore, FakeXUser } from './store.js';

/** The fake's registered app: a confidential client (twitter.md §3). */
export interface FakeXApp {
  clientId: string;
  clientSecret: string;
  /** Callback URLs X would accept (exact match); undefined accepts any http(s) URL. */
  redirectUris?: readonly string[];
}

export interface FakeXSettings {
  /** Seconds an access token lives (X: 2 hours). */
  accessTokenSeconds: number;
  /** Milliseconds a code may wait to be exchanged (X: 30 seconds). */
  codeLifetimeMs: number;
}

export interface RouteContext {
  store: FakeXStore;
  control: FakeXControlState;
  app: FakeXApp;
  settings: FakeXSettings;
  /** The fake's own address, for links on its pages. */
  baseUrl: string;
  url: URL;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An API route's context once the caller's token was checked. */
export interface ApiContext extends RouteContext {
  user: FakeXUser;
  token: FakeAccessToken;
  /** The parsed JSON body, for JSON routes. */
  json: unknown;
  /** The multipart fields and files, for multipart routes. */
  form: { fields: Record<string, string>; files: Record<string, Buffer> };
}

export type Handler<C> = (context: C) => Reply | Promise<Reply>;
