import type { JsonWebKey } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from '../shared/http.js';
import type { FakeBlueskyControlState } from './control.js';
import type { FakeBlueskyStore } from './store.js';

export interface FakeBlueskyApp {
  /** The client id: the URL of the client metadata document. */
  clientId: string;
  /** The operator's ES256 key, public part: what the client assertions are checked with. */
  publicJwk: JsonWebKey;
}

export interface FakeBlueskySettings {
  accessTokenSeconds: number;
  codeLifetimeMs: number;
  /** getJobStatus polls answered in progress before a video job completes. */
  videoPolls: number;
  maxBlobBytes: number;
  maxImageBytes: number;
  /** How long a blob no record references is kept (the PDS deletes it "within minutes"). */
  blobLifetimeMs: number;
  writePointsPerHour: number;
  writePointsPerDay: number;
  now: () => number;
}

export interface RouteContext {
  store: FakeBlueskyStore;
  control: FakeBlueskyControlState;
  app: FakeBlueskyApp;
  settings: FakeBlueskySettings;
  /** `http://127.0.0.1:<port>`: the issuer, the PDS and (under /video) the video service. */
  baseUrl: string;
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Form fields of a urlencoded body, and the query. */
  fields: URLSearchParams;
}

export type Handler = (context: RouteContext) => Reply | Promise<Reply>;

/** An XRPC error body (https://atproto.com/specs/xrpc). */
export function xrpcError(
  status: number,
  error: string,
  message: string,
  headers?: Record<string, string>,
): Reply {
  return { status, json: { error, message }, ...(headers && { headers }) };
}

export function jsonBody(context: RouteContext): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(context.body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
