import type { IncomingMessage, ServerResponse } from 'node:http';
import { threadsDefinition } from '../../../shared/networks/threads/definition.js';
import { defineFakeNetwork } from '../fake-network.js';
import { answerPerFailure } from '../shared/failure-injection.js';
import { queryThenForm, readGraphBody } from '../shared/request-body.js';
import { startLoopbackServer } from '../shared/server.js';
import { type FakeThreadsControl, FakeThreadsControlState, makeControl } from './control.js';
import { writeReply } from './http.js';
import type { FakeThreadsApp, FakeThreadsSettings } from './route.js';
import { findRoute, run } from './routes.js';
import { type FakeMediaType, FakeThreadsStore, type FakeThreadsUser } from './store.js';

export type { FakeFailure, FakeThreadsControl, FakeThreadsEndpoint } from './control.js';
export { ALL_SCOPES as FAKE_THREADS_SCOPES, FAKE_THREADS_ENDPOINTS } from './control.js';
export { graphError } from './http.js';
export type { FakeContainer, FakeThreadsPost, FakeThreadsUser } from './store.js';

const MB = 1024 * 1024;

export const FAKE_THREADS_DEFAULT_USER: FakeThreadsUser = {
  userId: '26000000000000001',
  username: 'fake_threader',
  name: 'Fake Threader',
  profilePictureUrl: 'https://scontent.cdninstagram.com/fake/threader.jpg',
};

export interface ThreadsFakeOptions {
  clientId?: string;
  clientSecret?: string;
  redirectUris?: string[];
  users?: FakeThreadsUser[];
  /** Status checks answered IN_PROGRESS after a container is made (default: 1 for video, 0 otherwise). */
  processingPolls?: Partial<Record<FakeMediaType, number>>;
  /** Posts per rolling 24 hours (default 250) and replies (default 1,000). */
  quotaTotal?: number;
  replyQuotaTotal?: number;
  maxImageBytes?: number;
  maxVideoBytes?: number;
  now?: () => number;
}

export interface ThreadsFake {
  /** THREADS_GRAPH_URL (the API, the code exchange and the token exchanges). */
  graphUrl: string;
  /** THREADS_AUTHORIZE_URL (the consent page). */
  authorizeUrl: string;
  clientId: string;
  clientSecret: string;
  control: FakeThreadsControl;
  stop(): Promise<void>;
}

/**
 * An HTTP fake of the Threads API and its OAuth (docs/research/threads.md) on loopback, one port for
 * graph.threads.net and threads.net/oauth/authorize. It checks requests as Threads does (the token
 * and its permissions, the owner, the container rules: media types, 500 characters with emoji by
 * their bytes, 5 links, text-only attachments, carousels of 2–20 FINISHED items, replies to
 * existing own posts), fetches media from the given URL (JPEG/PNG ≤ 8 MB, MP4/MOV), moves
 * containers IN_PROGRESS → FINISHED over status checks (ERROR with an error_message, EXPIRED after
 * 24 hours, PUBLISHED), enforces the 250 posts and 1,000 replies per 24 hours, and lets a test
 * inject failures and read what was made and published.
 */
export async function startThreadsFake(options: ThreadsFakeOptions = {}): Promise<ThreadsFake> {
  const store = new FakeThreadsStore();
  const settings: FakeThreadsSettings = {
    shortLivedSeconds: 60 * 60,
    longLivedSeconds: 60 * 24 * 60 * 60,
    refreshMinAgeMs: 24 * 60 * 60 * 1000,
    codeLifetimeMs: 60 * 60 * 1000,
    maxImageBytes: options.maxImageBytes ?? 8 * MB,
    maxVideoBytes: options.maxVideoBytes ?? 1024 * MB,
    containerLifetimeMs: 24 * 60 * 60 * 1000,
    now: options.now ?? Date.now,
  };
  const app: FakeThreadsApp = {
    clientId: options.clientId ?? '880000000000001',
    clientSecret: options.clientSecret ?? store.secret(24),
    ...(options.redirectUris && { redirectUris: options.redirectUris }),
  };
  for (const user of options.users ?? [FAKE_THREADS_DEFAULT_USER]) store.users.set(user.userId, user);
  const controlState = new FakeThreadsControlState(
    { TEXT: 0, IMAGE: 0, CAROUSEL: 0, VIDEO: 1, ...options.processingPolls },
    options.quotaTotal ?? 250,
    options.replyQuotaTotal ?? 1000,
  );
  let baseUrl = '';

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', baseUrl);
    const found = findRoute(request.method ?? '', url);
    const failure = found ? controlState.take(found.route.endpoint) : undefined;
    if (failure?.kind === 'reset') {
      request.socket.destroy();
      return;
    }
    const read = await readGraphBody(request, MB);
    if ('refusal' in read) writeReply(response, read.refusal);
    if (!('body' in read)) return;
    const { body } = read;
    const fields = queryThenForm(url, request.headers['content-type'], body);
    controlState.seen.push({
      endpoint: found?.route.endpoint ?? 'unknown',
      method: request.method ?? '',
      path: url.pathname,
      params: Object.fromEntries(
        [...fields].filter(([name]) => name !== 'access_token' && name !== 'client_secret'),
      ),
      authorized: Boolean(request.headers.authorization) || fields.has('access_token'),
    });
    if (!found) {
      writeReply(response, {
        status: 404,
        json: { error: { message: 'Unknown path', type: 'THApiException', code: 100 } },
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
    authorizeUrl: `${baseUrl}/oauth/authorize`,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    control: makeControl(controlState, store, settings),
    stop: server.stop,
  };
}

/** Threads' fake for a whole host (../start.ts): the API, OAuth and consent page on one port. */
export const fakeNetwork = defineFakeNetwork({
  definition: threadsDefinition,
  async start() {
    const fake = await startThreadsFake();
    return {
      endpoints: { THREADS_GRAPH_URL: fake.graphUrl, THREADS_AUTHORIZE_URL: fake.authorizeUrl },
      apps: { THREADS: { clientId: fake.clientId, clientSecret: fake.clientSecret } },
      stop: fake.stop,
    };
  },
});
