import type { IncomingMessage, ServerResponse } from 'node:http';
import { tiktokDefinition } from '../../../shared/networks/tiktok/definition.js';
import { defineFakeNetwork } from '../fake-network.js';
import { startLoopbackServer } from '../shared/server.js';
import {
  contentInit,
  creatorInfo,
  inboxVideoInit,
  statusFetch,
  uploadChunk,
  userInfo,
  videoInit,
} from './api-routes.js';
import { FAKE_TIKTOK_SCOPES, type FakeTikTokApp, type FakeTikTokSettings, type Handler } from './context.js';
import { envelope, oauthError, type Reply, readBody, writeReply } from './http.js';
import { videoQuery } from './metrics-routes.js';
import { authorizeDecision, authorizePage, revoke, token } from './oauth-routes.js';
import {
  type FakeAccessToken,
  type FakePublish,
  type FakeRefreshToken,
  type FakeSeenRequest,
  type FakeTikTokCreator,
  type FakeTikTokEndpoint,
  type FakeTikTokFailure,
  FakeTikTokState,
} from './state.js';

export { FAKE_TIKTOK_ENDPOINTS } from './state.js';
export type {
  FakeAccessToken,
  FakePublish,
  FakeRefreshToken,
  FakeSeenRequest,
  FakeTikTokCreator,
  FakeTikTokEndpoint,
  FakeTikTokFailure,
};

const MB = 1024 * 1024;

/** What the connector asks at consent (shared/networks/tiktok/oauth.ts), so issueToken matches a full grant. */
const TOKEN_SCOPES = ['user.info.basic', 'video.publish', 'video.upload', 'video.list', 'user.info.stats'];

export const FAKE_TIKTOK_DEFAULT_CREATOR: FakeTikTokCreator = {
  openId: 'fake-open-id-1',
  username: 'ada.dances',
  displayName: 'Ada Dances',
  avatarUrl: 'https://p16-sign.tiktokcdn.com/fake/ada.jpeg',
  privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
  commentDisabled: false,
  duetDisabled: false,
  stitchDisabled: false,
  maxVideoPostDurationSec: 600,
};

export interface TikTokFakeOptions {
  clientKey?: string;
  clientSecret?: string;
  redirectUris?: string[];
  /** The scopes approved for the app; default every scope the fake knows. */
  appScopes?: string[];
  creators?: FakeTikTokCreator[];
  /** Overrides of the fake's rules (chunk sizes, polls, caps, clock). */
  settings?: Partial<FakeTikTokSettings>;
}

export interface FakeTikTokControl {
  /** The next request(s) of `endpoint` fail as given, in order. */
  failNext(endpoint: FakeTikTokEndpoint, ...failures: FakeTikTokFailure[]): void;
  /** The next publishes end FAILED with these fail_reasons, one each. */
  failNextPublish(...failReasons: string[]): void;
  /** The post ids (decimal digits) the next public posts get, in order. */
  nextPostIds(...postIds: string[]): void;
  /**
   * Moderation held back: public posts reach PUBLISH_COMPLETE with no post id (TikTok's status page:
   * the id comes only once moderation approves, sometimes hours later), until `releaseModeration`.
   */
  holdModeration(): void;
  /** Moderation approves every post it held: each gets its post id. */
  releaseModeration(): void;
  /** Change a creator (privacy options, interactions turned off). */
  updateCreator(openId: string, change: Partial<FakeTikTokCreator>): void;
  /** Change the fake's rules while it runs. */
  updateSettings(change: Partial<FakeTikTokSettings>): void;
  /**
   * A token as the consent flow would issue it, without the browser steps: by default with every
   * scope the connector asks for (TIKTOK_SCOPES); a test gives fewer for a creator who declined some.
   */
  issueToken(openId?: string, scopes?: string[]): string;
  /**
   * A public video of the creator that video/query answers, posted `createdAt` on the fake's
   * clock (now by default): its counts grow from then. Returns its id (19 digits, above 2^53).
   */
  addVideo(video?: { openId?: string; postId?: string; createdAt?: number }): string;
  /** The creator deleted the video (or made it private): video/query leaves it out. */
  deleteVideo(postId: string): void;
  /** The video_ids of each video/query, in order. */
  videoQueries(): string[][];
  expireAccessToken(accessToken: string): void;
  accessTokens(): FakeAccessToken[];
  refreshTokens(): FakeRefreshToken[];
  publishes(): FakePublish[];
  /** Every request seen, in order. */
  seen(): FakeSeenRequest[];
}

export interface TikTokFake {
  /** TIKTOK_API_URL. */
  apiUrl: string;
  /** TIKTOK_AUTHORIZE_URL. */
  authorizeUrl: string;
  /** TIKTOK_CLIENT_ID: the app's client key. */
  clientId: string;
  clientSecret: string;
  control: FakeTikTokControl;
  stop(): Promise<void>;
}

interface Route {
  endpoint: FakeTikTokEndpoint;
  handler: Handler;
  maxBody: number;
}

function routeOf(method: string, path: string): { route: Route; param?: string } | undefined {
  const small = 1 * MB;
  const table: Record<string, Route> = {
    'GET /v2/auth/authorize/': { endpoint: 'authorize', handler: authorizePage, maxBody: small },
    'POST /v2/auth/authorize/decision': { endpoint: 'authorize', handler: authorizeDecision, maxBody: small },
    'POST /v2/oauth/token/': { endpoint: 'token', handler: token, maxBody: small },
    'POST /v2/oauth/revoke/': { endpoint: 'revoke', handler: revoke, maxBody: small },
    'GET /v2/user/info/': { endpoint: 'user_info', handler: userInfo, maxBody: small },
    'POST /v2/post/publish/creator_info/query/': {
      endpoint: 'creator_info',
      handler: creatorInfo,
      maxBody: small,
    },
    'POST /v2/post/publish/video/init/': { endpoint: 'video_init', handler: videoInit, maxBody: small },
    'POST /v2/post/publish/inbox/video/init/': {
      endpoint: 'inbox_video_init',
      handler: inboxVideoInit,
      maxBody: small,
    },
    'POST /v2/post/publish/content/init/': { endpoint: 'content_init', handler: contentInit, maxBody: small },
    'POST /v2/post/publish/status/fetch/': { endpoint: 'status', handler: statusFetch, maxBody: small },
    'POST /v2/video/query/': { endpoint: 'video_query', handler: videoQuery, maxBody: small },
  };
  const found = table[`${method} ${path}`];
  if (found) return { route: found };
  const upload = /^\/upload\/([0-9a-f]+)$/.exec(path);
  if (method === 'PUT' && upload) {
    return { route: { endpoint: 'upload', handler: uploadChunk, maxBody: 129 * MB }, param: upload[1] ?? '' };
  }
  return undefined;
}

function injected(failure: FakeTikTokFailure): Reply | undefined {
  if (failure.kind === 'error') return envelope(failure.status, failure.code, 'Injected failure.');
  if (failure.kind === 'oauthError') return oauthError(failure.status, failure.error, 'Injected failure.');
  return undefined;
}

/**
 * An HTTP fake of TikTok's OAuth v2 and Content Posting API (networks/tiktok.md), on loopback at a
 * free port: it checks requests as TikTok does (client_key, bearer tokens and scopes, the chunk
 * rules at init, each chunk's Content-Range in order, the creator's privacy options, per-token
 * per-minute limits, the daily cap) and answers in TikTok's envelope; publishes move through
 * PROCESSING_UPLOAD/DOWNLOAD to PUBLISH_COMPLETE or FAILED over status polls.
 */
export async function startTikTokFake(options: TikTokFakeOptions = {}): Promise<TikTokFake> {
  const settings: FakeTikTokSettings = {
    accessTokenSeconds: 2 * 60 * 60,
    refreshTokenSeconds: 180 * 24 * 60 * 60,
    codeLifetimeMs: 10 * 60 * 1000,
    perMinute: { creator_info: 20, init: 6, status: 30 },
    minChunkBytes: 5 * MB,
    maxChunkBytes: 64 * MB,
    maxLastChunkBytes: 128 * MB,
    processingPolls: 1,
    dailyPostCap: 15,
    now: Date.now,
    ...options.settings,
  };
  const state = new FakeTikTokState(settings.now());
  const app: FakeTikTokApp = {
    clientKey: options.clientKey ?? 'fakeclientkey01',
    clientSecret: options.clientSecret ?? state.secret(16),
    ...(options.redirectUris && { redirectUris: options.redirectUris }),
    scopes: options.appScopes ?? FAKE_TIKTOK_SCOPES,
  };
  for (const creator of options.creators ?? [FAKE_TIKTOK_DEFAULT_CREATOR])
    state.creators.set(creator.openId, { ...creator });
  let baseUrl = '';

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', baseUrl);
    const method = request.method ?? '';
    const found = routeOf(method, url.pathname);
    const seen: FakeSeenRequest = {
      endpoint: found?.route.endpoint ?? 'unknown',
      method,
      path: url.pathname,
      ...(typeof request.headers['content-range'] === 'string' && {
        contentRange: request.headers['content-range'],
      }),
      ...(typeof request.headers['content-type'] === 'string' && {
        contentType: request.headers['content-type'],
      }),
      bodyBytes: 0,
    };
    state.seen.push(seen);
    if (!found) {
      request.resume();
      writeReply(response, envelope(404, 'not_found', 'Not found.'));
      return;
    }
    const failure = state.take(found.route.endpoint);
    if (failure?.kind === 'reset') {
      request.socket.destroy();
      return;
    }
    const body = await readBody(request, found.route.maxBody);
    if (body === 'too_large') {
      writeReply(response, { status: 413, json: { error: 'too large' } });
      return;
    }
    seen.bodyBytes = body.length;
    const early = failure && injected(failure);
    if (early) {
      writeReply(response, early);
      return;
    }
    const reply = await found.route.handler({
      state,
      app,
      settings,
      baseUrl,
      url,
      method,
      headers: request.headers,
      body,
      ...(found.param !== undefined && { param: found.param }),
    });
    if (failure?.kind === 'delayAfter') {
      server.later(failure.ms, () => writeReply(response, reply));
      return;
    }
    writeReply(response, reply);
  };

  const server = await startLoopbackServer(answer, (response) =>
    writeReply(response, envelope(500, 'internal_error', 'Internal error.')),
  );
  baseUrl = server.baseUrl;

  const control: FakeTikTokControl = {
    failNext(endpoint, ...failures) {
      state.failures.set(endpoint, [...(state.failures.get(endpoint) ?? []), ...failures]);
    },
    failNextPublish(...failReasons) {
      state.nextFailReasons.push(...failReasons);
    },
    nextPostIds(...postIds) {
      state.nextPostIds.push(...postIds);
    },
    holdModeration() {
      state.moderationHeld = true;
    },
    releaseModeration() {
      state.moderationHeld = false;
      for (const publish of state.publishes.values()) {
        if (!publish.inModeration) continue;
        publish.inModeration = false;
        publish.postId = state.nextPostId();
      }
    },
    updateCreator(openId, change) {
      const creator = state.creators.get(openId);
      if (!creator) throw new Error(`No creator ${openId}`);
      Object.assign(creator, change);
    },
    updateSettings(change) {
      Object.assign(settings, change);
    },
    issueToken(openId = FAKE_TIKTOK_DEFAULT_CREATOR.openId, scopes = [...TOKEN_SCOPES]) {
      const accessToken = `act.${state.secret(24)}`;
      state.accessTokens.set(accessToken, {
        token: accessToken,
        openId,
        scopes,
        expiresAt: settings.now() + settings.accessTokenSeconds * 1000,
        revoked: false,
      });
      return accessToken;
    },
    addVideo(video = {}) {
      const postId = video.postId ?? state.nextPostId();
      state.videos.set(postId, {
        postId,
        openId: video.openId ?? FAKE_TIKTOK_DEFAULT_CREATOR.openId,
        createdAt: video.createdAt ?? settings.now(),
      });
      return postId;
    },
    deleteVideo(postId) {
      state.deletedPostIds.add(postId);
    },
    videoQueries: () => state.videoQueries.map((ids) => [...ids]),
    expireAccessToken(accessToken) {
      const found = state.accessTokens.get(accessToken);
      if (found) found.expiresAt = 0;
    },
    accessTokens: () => [...state.accessTokens.values()].map((t) => ({ ...t })),
    refreshTokens: () => [...state.refreshTokens.values()].map((t) => ({ ...t })),
    publishes: () => [...state.publishes.values()],
    seen: () => [...state.seen],
  };

  return {
    apiUrl: baseUrl,
    authorizeUrl: `${baseUrl}/v2/auth/authorize/`,
    clientId: app.clientKey,
    clientSecret: app.clientSecret,
    control,
    stop: server.stop,
  };
}

/** TikTok's fake for a whole host (../start.ts): its API, consent page and one app. */
export const fakeNetwork = defineFakeNetwork({
  definition: tiktokDefinition,
  async start() {
    const fake = await startTikTokFake();
    return {
      endpoints: { TIKTOK_API_URL: fake.apiUrl, TIKTOK_AUTHORIZE_URL: fake.authorizeUrl },
      apps: { TIKTOK: { clientId: fake.clientId, clientSecret: fake.clientSecret } },
      stop: fake.stop,
    };
  },
});
