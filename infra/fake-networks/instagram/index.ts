import type { IncomingMessage, ServerResponse } from 'node:http';
import { instagramDefinition } from '../../../shared/networks/instagram/definition.js';
import { defineFakeNetwork } from '../fake-network.js';
import { answerPerFailure } from '../shared/failure-injection.js';
import { queryThenForm, readGraphBody } from '../shared/request-body.js';
import { startLoopbackServer } from '../shared/server.js';
import { type FakeInstagramControl, FakeInstagramControlState, makeControl } from './control.js';
import { writeReply } from './http.js';
import type { FakeInstagramApp, FakeInstagramSettings } from './route.js';
import { findRoute, run } from './routes.js';
import { type FakeContainerType, FakeInstagramStore, type FakeInstagramUser } from './store.js';

export type { FakeFailure, FakeInstagramControl, FakeInstagramEndpoint } from './control.js';
export { FAKE_INSTAGRAM_ENDPOINTS } from './control.js';
export { graphError } from './http.js';
export { fakeFollowersAt, fakeInsightsAt } from './insights-routes.js';
export type { FakeComment, FakeContainer, FakeInstagramUser, FakeMedia } from './store.js';

const MB = 1024 * 1024;

export const FAKE_INSTAGRAM_DEFAULT_USER: FakeInstagramUser = {
  userId: '17841400000000001',
  username: 'fake_photographer',
  name: 'Fake Photographer',
  profilePictureUrl: 'https://scontent.cdninstagram.com/fake/photographer.jpg',
};

export interface InstagramFakeOptions {
  clientId?: string;
  clientSecret?: string;
  redirectUris?: string[];
  users?: FakeInstagramUser[];
  /** Status checks answered IN_PROGRESS after a container is made (default: 0 for images, 1 for video). */
  processingPolls?: Partial<Record<FakeContainerType, number>>;
  /** Posts per rolling 24 hours (default 50). */
  quotaTotal?: number;
  maxImageBytes?: number;
  maxVideoBytes?: number;
  now?: () => number;
}

export interface InstagramFake {
  /** INSTAGRAM_GRAPH_URL. */
  graphUrl: string;
  /** INSTAGRAM_OAUTH_URL (the code exchange is `{it}/access_token`). */
  oauthUrl: string;
  /** INSTAGRAM_AUTHORIZE_URL (the consent page). */
  authorizeUrl: string;
  clientId: string;
  clientSecret: string;
  control: FakeInstagramControl;
  stop(): Promise<void>;
}

/**
 * An HTTP fake of Instagram's Graph API and OAuth with Instagram Login (networks/instagram.md) on
 * loopback, one port for the three hosts (graph.instagram.com, api.instagram.com/oauth and
 * www.instagram.com/oauth/authorize). It checks requests as Instagram does (the token, the owner,
 * the container parameters, the media it fetches from the given URL: JPEG ≤ 8 MiB for images),
 * moves containers through IN_PROGRESS → FINISHED over status checks, enforces the daily
 * publishing limit, and lets a test inject failures and read what was made and published.
 */
export async function startInstagramFake(options: InstagramFakeOptions = {}): Promise<InstagramFake> {
  const store = new FakeInstagramStore();
  const settings: FakeInstagramSettings = {
    shortLivedSeconds: 60 * 60,
    longLivedSeconds: 60 * 24 * 60 * 60,
    refreshMinAgeMs: 24 * 60 * 60 * 1000,
    codeLifetimeMs: 60 * 60 * 1000,
    maxImageBytes: options.maxImageBytes ?? 8 * MB,
    maxVideoBytes: options.maxVideoBytes ?? 300 * MB,
    containerLifetimeMs: 24 * 60 * 60 * 1000,
    maxCaption: 2200,
    now: options.now ?? Date.now,
  };
  store.startedAt = settings.now();
  const app: FakeInstagramApp = {
    clientId: options.clientId ?? '990000000000001',
    clientSecret: options.clientSecret ?? store.secret(24),
    ...(options.redirectUris && { redirectUris: options.redirectUris }),
  };
  for (const user of options.users ?? [FAKE_INSTAGRAM_DEFAULT_USER]) store.users.set(user.userId, user);
  const controlState = new FakeInstagramControlState(
    { IMAGE: 0, CAROUSEL: 0, STORIES: 0, VIDEO: 1, REELS: 1, ...options.processingPolls },
    options.quotaTotal ?? 50,
  );
  let baseUrl = '';

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', baseUrl);
    const found = findRoute(request.method ?? '', url);
    controlState.seen.push({
      endpoint: found?.route.endpoint ?? 'unknown',
      method: request.method ?? '',
      path: url.pathname,
      params: Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'access_token')),
      authorized: Boolean(request.headers.authorization) || url.searchParams.has('access_token'),
    });
    if (!found) {
      request.resume();
      writeReply(response, {
        status: 404,
        json: { error: { message: 'Unknown path', type: 'OAuthException', code: 100 } },
      });
      return;
    }
    const failure = controlState.take(found.route.endpoint);
    if (failure?.kind === 'reset') {
      request.socket.destroy();
      return;
    }
    const read = await readGraphBody(request, MB);
    if ('refusal' in read) writeReply(response, read.refusal);
    if (!('body' in read)) return;
    const { body } = read;
    if (failure?.kind === 'reply') {
      writeReply(response, failure.reply);
      return;
    }
    const fields = queryThenForm(url, request.headers['content-type'], body);
    const reply = await run(found.route, {
      store,
      control: controlState,
      app,
      settings,
      baseUrl,
      url,
      params: found.params,
      headers: request.headers,
      body,
      fields,
    });
    answerPerFailure(failure, server.later, () => writeReply(response, reply));
  };

  const server = await startLoopbackServer(answer, (response) => {
    if (!response.headersSent)
      writeReply(response, { status: 500, json: { error: { message: 'Internal error', code: 2 } } });
  });
  baseUrl = server.baseUrl;

  return {
    graphUrl: baseUrl,
    oauthUrl: `${baseUrl}/oauth`,
    authorizeUrl: `${baseUrl}/oauth/authorize`,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    control: makeControl(controlState, store, settings),
    stop: server.stop,
  };
}

/** Instagram's fake for a whole host (../start.ts): the Graph API, OAuth and consent page on one port. */
export const fakeNetwork = defineFakeNetwork({
  definition: instagramDefinition,
  async start() {
    const fake = await startInstagramFake();
    return {
      endpoints: {
        INSTAGRAM_GRAPH_URL: fake.graphUrl,
        INSTAGRAM_OAUTH_URL: fake.oauthUrl,
        INSTAGRAM_AUTHORIZE_URL: fake.authorizeUrl,
      },
      apps: { INSTAGRAM: { clientId: fake.clientId, clientSecret: fake.clientSecret } },
      stop: fake.stop,
    };
  },
});
