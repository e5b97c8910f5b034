import type { IncomingMessage, ServerResponse } from 'node:http';
import { facebookDefinition } from '../../../shared/networks/facebook/definition.js';
import { defineFakeNetwork } from '../fake-network.js';
import { answerPerFailure } from '../shared/failure-injection.js';
import { readGraphBody } from '../shared/request-body.js';
import { startLoopbackServer } from '../shared/server.js';
import { type FakeFacebookControl, FakeFacebookControlState, makeControl } from './control.js';
import { writeReply } from './http.js';
import type { FakeFacebookApp, FakeFacebookSettings } from './route.js';
import { findRoute, run } from './routes.js';
import { FakeFacebookStore, type FakeFacebookUser } from './store.js';

export type { FakeFacebookControl, FakeFacebookEndpoint, FakeFailure, SeenRequest } from './control.js';
export { FACEBOOK_PERMISSIONS, FAKE_FACEBOOK_ENDPOINTS } from './control.js';
export { graphError } from './http.js';
export type {
  FakeComment,
  FakeFacebookPage,
  FakeFacebookUser,
  FakePhoto,
  FakePost,
  FakeVideo,
} from './store.js';

const MB = 1000 * 1000;

/** A person who manages two Pages they may publish to, and one they may only moderate. */
export const FAKE_FACEBOOK_DEFAULT_USER: FakeFacebookUser = {
  userId: '10160000000000001',
  name: 'Fake Page Admin',
  pages: [
    {
      pageId: '104000000000001',
      name: 'Fake Bakery',
      username: 'fakebakery',
      tasks: ['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'],
      pictureUrl: 'https://scontent.xx.fbcdn.net/fake/bakery.jpg',
    },
    {
      pageId: '104000000000002',
      name: 'Fake Bakery Events',
      tasks: ['ANALYZE', 'CREATE_CONTENT'],
    },
    { pageId: '104000000000003', name: 'Fake Fan Club', tasks: ['ANALYZE', 'MODERATE'] },
  ],
};

export interface FacebookFakeOptions {
  clientId?: string;
  clientSecret?: string;
  redirectUris?: string[];
  users?: FakeFacebookUser[];
  /** Status reads a video (default 1) or reel (default 1) stays in processing. */
  processingPolls?: Partial<FakeFacebookSettings['processingPolls']>;
  reelsPerDay?: number;
  burstPerMinute?: number;
  maxImageBytes?: number;
  now?: () => number;
}

export interface FacebookFake {
  /** FACEBOOK_GRAPH_URL. */
  graphUrl: string;
  /** FACEBOOK_GRAPH_VIDEO_URL. */
  graphVideoUrl: string;
  /** FACEBOOK_RUPLOAD_URL. */
  ruploadUrl: string;
  /** FACEBOOK_AUTHORIZE_URL (the Login dialog). */
  authorizeUrl: string;
  clientId: string;
  clientSecret: string;
  control: FakeFacebookControl;
  stop(): Promise<void>;
}

/**
 * An HTTP fake of the Graph API's Pages publishing and Facebook Login (facebook-pages.md) on
 * loopback, one port for the four hosts (graph.facebook.com, graph-video.facebook.com under
 * `/graph-video`, rupload.facebook.com under `/rupload`, www.facebook.com's dialog). It checks
 * requests as Meta does (a Page token of that Page for publishing, the permissions and the task,
 * the message length, the photos it fetches: JPEG/PNG/GIF/BMP/TIFF ≤ 4 MB, `attached_media` as
 * form fields of the Page's unpublished photos, 506 for the same text twice in a row, a reel's
 * phases and its 30 a day), moves videos through processing over status reads, and lets a test
 * inject failures and read what was made and published.
 */
export async function startFacebookFake(options: FacebookFakeOptions = {}): Promise<FacebookFake> {
  const store = new FakeFacebookStore();
  const settings: FakeFacebookSettings = {
    shortLivedSeconds: 2 * 60 * 60,
    longLivedSeconds: 5_183_944,
    codeLifetimeMs: 10 * 60 * 1000,
    maxImageBytes: options.maxImageBytes ?? 4 * MB,
    maxVideoBytes: 10_000 * MB,
    maxMessage: 63_206,
    maxComment: 8000,
    maxAttachedPhotos: 10,
    reelsPerDay: options.reelsPerDay ?? 30,
    reelSeconds: { min: 3, max: 90 },
    burstPerMinute: options.burstPerMinute ?? 30,
    processingPolls: { video: 1, reel: 1, ...options.processingPolls },
    now: options.now ?? Date.now,
  };
  const app: FakeFacebookApp = {
    clientId: options.clientId ?? '880000000000001',
    clientSecret: options.clientSecret ?? store.secret(24),
    ...(options.redirectUris && { redirectUris: options.redirectUris }),
  };
  for (const user of options.users ?? [FAKE_FACEBOOK_DEFAULT_USER])
    store.users.set(user.userId, structuredClone(user));
  const controlState = new FakeFacebookControlState();
  let baseUrl = '';

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', baseUrl);
    const found = findRoute(request.method ?? '', url);
    const failure = found ? controlState.take(found.route.endpoint) : undefined;
    if (failure?.kind === 'reset') {
      request.socket.destroy();
      return;
    }
    const read = await readGraphBody(request, 64 * MB);
    if ('refusal' in read) writeReply(response, read.refusal);
    if (!('body' in read)) return;
    const { body } = read;
    const fields = new URLSearchParams(url.searchParams);
    const formNames: string[] = [];
    if ((request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
        fields.append(name, value);
        formNames.push(name);
      }
    }
    controlState.seen.push({
      endpoint: found?.route.endpoint ?? 'unknown',
      method: request.method ?? '',
      path: url.pathname,
      params: Object.fromEntries(
        [...fields].filter(
          ([name]) => !['access_token', 'client_secret', 'fb_exchange_token', 'code'].includes(name),
        ),
      ),
      formNames,
      headers: Object.fromEntries(
        Object.entries(request.headers)
          .filter(([name]) => name !== 'authorization')
          .map(([name, value]) => [name, String(value)]),
      ),
    });
    if (!found) {
      writeReply(response, {
        status: 400,
        json: { error: { message: 'Unknown path components', type: 'OAuthException', code: 2500 } },
      });
      return;
    }
    if (failure?.kind === 'reply') {
      writeReply(response, failure.reply);
      return;
    }
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
      writeReply(response, {
        status: 500,
        json: { error: { message: 'An unknown error occurred', code: 1 } },
      });
  });
  baseUrl = server.baseUrl;

  return {
    graphUrl: baseUrl,
    graphVideoUrl: `${baseUrl}/graph-video`,
    ruploadUrl: `${baseUrl}/rupload`,
    authorizeUrl: `${baseUrl}/v24.0/dialog/oauth`,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    control: makeControl(controlState, store, settings),
    stop: server.stop,
  };
}

/** Facebook's fake for a whole host (../start.ts): the Graph API, its upload hosts and the Login dialog on one port. */
export const fakeNetwork = defineFakeNetwork({
  definition: facebookDefinition,
  async start() {
    const fake = await startFacebookFake();
    return {
      endpoints: {
        FACEBOOK_GRAPH_URL: fake.graphUrl,
        FACEBOOK_AUTHORIZE_URL: fake.authorizeUrl,
        FACEBOOK_GRAPH_VIDEO_URL: fake.graphVideoUrl,
        FACEBOOK_RUPLOAD_URL: fake.ruploadUrl,
      },
      apps: { FACEBOOK: { clientId: fake.clientId, clientSecret: fake.clientSecret } },
      stop: fake.stop,
    };
  },
});
