import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { blueskyDefinition } from '../../../shared/networks/bluesky/definition.js';
import { defineFakeNetwork } from '../fake-network.js';
import { BodyTooLarge, type Reply, readBody, writeReply as writeAny } from '../shared/http.js';
import { startLoopbackServer } from '../shared/server.js';
import type { FakeBlueskyApp, FakeBlueskySettings } from './context.js';
import { type FakeBlueskyControl, FakeBlueskyControlState, makeControl } from './control.js';
import { findRoute } from './routes.js';
import { FakeBlueskyStore, type FakeBlueskyUser } from './store.js';

export type { FakeBlueskyControl, FakeBlueskyEndpoint } from './control.js';
export { FAKE_BLUESKY_ENDPOINTS } from './control.js';
export type { FakeBlueskyUser, FakeRecord } from './store.js';

export const FAKE_BLUESKY_DEFAULT_USER: FakeBlueskyUser = {
  did: 'did:plc:fakeauthor0000000000000a',
  handle: 'fake-author.bsky.social',
  displayName: 'Fake Author',
};
/** A second account, to be mentioned (its handle resolves). */
export const FAKE_BLUESKY_FRIEND: FakeBlueskyUser = {
  did: 'did:plc:fakefriend0000000000000b',
  handle: 'friend.bsky.social',
  displayName: 'Fake Friend',
};

const MAX_BODY_BYTES = 60 * 1024 * 1024;
const JSON_CONTENT_TYPE = { value: 'application/json; charset=utf-8', routeMayOverride: false };

export interface BlueskyFakeOptions {
  /** The client id the operator's app has: the URL of its client metadata document. */
  clientId?: string;
  users?: FakeBlueskyUser[];
  accessTokenSeconds?: number;
  videoPolls?: number;
  writePointsPerHour?: number;
  /** How long an unreferenced blob is kept (default 10 minutes). */
  blobLifetimeMs?: number;
  now?: () => number;
}

export interface BlueskyFake {
  /** BLUESKY_ENTRYWAY_URL: the authorization server (its issuer). */
  entrywayUrl: string;
  /** BLUESKY_PLC_URL. */
  plcUrl: string;
  /** BLUESKY_VIDEO_URL. */
  videoUrl: string;
  /** The PDS every account of the fake is on. */
  pdsUrl: string;
  clientId: string;
  /** The operator's ES256 private key as a JWK, as JSON: the BLUESKY app's secret. */
  clientSecret: string;
  control: FakeBlueskyControl;
  stop(): Promise<void>;
}

/**
 * An HTTP fake of Bluesky on loopback, one port for the entryway's authorization server (PAR only,
 * PKCE S256, DPoP with nonces, private_key_jwt, single-use refresh tokens), the PLC directory, the
 * account's PDS (createRecord with the lexicon's rules, a duplicate record key answering 500 as the
 * real PDS does, write-point rate limits, blobs) and the video service (jobs that complete after a
 * few polls). It checks requests as Bluesky does, and lets a test inject failures and read posts.
 */
export async function startBlueskyFake(options: BlueskyFakeOptions = {}): Promise<BlueskyFake> {
  const store = new FakeBlueskyStore();
  for (const user of options.users ?? [FAKE_BLUESKY_DEFAULT_USER, FAKE_BLUESKY_FRIEND])
    store.users.set(user.did, { ...user });
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privateJwk = { ...privateKey.export({ format: 'jwk' }), kid: 'fake-client-key-1' };
  const app: FakeBlueskyApp = {
    clientId: options.clientId ?? 'https://app.example.com/v1/oauth/bluesky/client-metadata.json',
    publicJwk: publicKey.export({ format: 'jwk' }) as JsonWebKey,
  };
  const settings: FakeBlueskySettings = {
    accessTokenSeconds: options.accessTokenSeconds ?? 3600,
    codeLifetimeMs: 5 * 60_000,
    videoPolls: options.videoPolls ?? 1,
    maxBlobBytes: 52_428_800,
    maxImageBytes: 1_000_000,
    blobLifetimeMs: options.blobLifetimeMs ?? 10 * 60_000,
    writePointsPerHour: options.writePointsPerHour ?? 5000,
    writePointsPerDay: 35_000,
    now: options.now ?? Date.now,
  };
  const control = new FakeBlueskyControlState();
  let baseUrl = '';

  const write = (response: ServerResponse, reply: Reply, server: string) => {
    const nonce = server === 'authServer' || server === 'pds' ? store.nonces[server] : undefined;
    writeAny(
      response,
      nonce ? { ...reply, headers: { 'dpop-nonce': nonce, ...reply.headers } } : reply,
      JSON_CONTENT_TYPE,
    );
  };

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', baseUrl);
    const method = request.method ?? '';
    const route = findRoute(method, url.pathname);
    control.seen.push({ endpoint: route?.endpoint ?? url.pathname, method, path: url.pathname });
    if (!route) {
      request.resume();
      write(
        response,
        { status: 404, json: { error: 'MethodNotImplemented', message: 'Method Not Implemented' } },
        'other',
      );
      return;
    }
    const failure = route.endpoint ? control.take(route.endpoint) : undefined;
    if (failure?.kind === 'reset') {
      request.socket.destroy();
      return;
    }
    let body: Buffer;
    try {
      body = await readBody(request, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLarge)
        write(
          response,
          { status: 413, json: { error: 'PayloadTooLarge', message: 'request entity too large' } },
          route.server,
        );
      else request.socket.destroy();
      return;
    }
    if (failure?.kind === 'reply') {
      write(response, failure.reply, route.server);
      return;
    }
    const fields = new URLSearchParams(url.searchParams);
    if ((request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      for (const [name, value] of new URLSearchParams(body.toString('utf8'))) fields.set(name, value);
    }
    const reply = await route.handler({
      store,
      control,
      app,
      settings,
      baseUrl,
      method,
      url,
      headers: request.headers,
      body,
      fields,
    });
    if (failure?.kind === 'delayAfter') {
      server.later(failure.ms, () => write(response, reply, route.server));
      return;
    }
    write(response, reply, route.server);
  };

  const server = await startLoopbackServer(answer, (response) => {
    if (!response.headersSent)
      writeAny(
        response,
        { status: 500, json: { error: 'InternalServerError', message: 'Internal Server Error' } },
        JSON_CONTENT_TYPE,
      );
  });
  baseUrl = server.baseUrl;

  return {
    entrywayUrl: baseUrl,
    plcUrl: `${baseUrl}/plc`,
    videoUrl: `${baseUrl}/video`,
    pdsUrl: baseUrl,
    clientId: app.clientId,
    clientSecret: JSON.stringify(privateJwk),
    control: makeControl(control, store),
    stop: server.stop,
  };
}

/** Bluesky's fake for a whole host (../start.ts): authorization server, PLC, PDS and video service on one port. */
export const fakeNetwork = defineFakeNetwork({
  definition: blueskyDefinition,
  async start() {
    const fake = await startBlueskyFake();
    return {
      endpoints: {
        BLUESKY_ENTRYWAY_URL: fake.entrywayUrl,
        BLUESKY_PLC_URL: fake.plcUrl,
        BLUESKY_VIDEO_URL: fake.videoUrl,
      },
      apps: { BLUESKY: { clientId: fake.clientId, clientSecret: fake.clientSecret } },
      stop: fake.stop,
    };
  },
});
