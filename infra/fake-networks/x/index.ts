import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { xDefinition } from '../../../shared/networks/x/definition.js';
import { defineFakeNetwork } from '../fake-network.js';
import { startLoopbackServer } from '../shared/server.js';
import { FakeXControlState, type XFakeControl, type XFakeEndpoint } from './control.js';
import { BodyTooLarge, problems, type Reply, readBody, writeReply } from './http.js';
import { MAX_SEGMENT_BYTES } from './media-limits.js';
import * as media from './media-routes.js';
import { lookupTweets } from './metrics-routes.js';
import { authorizePage, decide, revoke, token } from './oauth-routes.js';
import { XOpenApiValidator } from './openapi-validator.js';
import type { ApiContext, FakeXApp, FakeXSettings, Handler, RouteContext } from './route.js';
import { FakeXStore, type FakeXUser } from './store.js';
import { createTweet, getCommunity } from './tweets-routes.js';
import { me, userTweets } from './users-routes.js';

export type { InjectedFailure, RequestRecord, XFakeControl, XFakeEndpoint } from './control.js';
export type { FakeMedia, FakeTweet, FakeXUser } from './store.js';

/**
 * An HTTP fake of X's API v2 and OAuth 2.0 (../shared/networks/twitter.md), on loopback, for the
 * connector's tests, `npm run fake-networks` and `FAKE_NETWORKS=1 npm start`. It checks requests
 * as X does: the bearer token and its scopes, every request body (and the path and query
 * parameters) against X's own OpenAPI document, the upload's chunk order and sizes, and the OAuth
 * rules (PKCE, single-use codes and refresh tokens, Basic client auth). Its control surface
 * injects failures and reads what was posted.
 */

export interface XFakeOptions {
  clientId?: string;
  clientSecret?: string;
  /** Callback URLs the app registered (exact match); any http(s) URL when left out. */
  redirectUris?: readonly string[];
  /** Users who can approve the consent; one (`@fake_x_user`) by default, the first is preselected. */
  users?: FakeXUser[];
  /** Port on 127.0.0.1; 0 (any free port) by default. */
  port?: number;
  settings?: Partial<FakeXSettings>;
}

export interface XFake {
  /** For X_API_URL. */
  apiUrl: string;
  /** For X_AUTHORIZE_URL. */
  authorizeUrl: string;
  clientId: string;
  clientSecret: string;
  control: XFakeControl;
  stop(): Promise<void>;
}

export const DEFAULT_FAKE_X_USER: FakeXUser = {
  id: '1500000000000000001',
  username: 'fake_x_user',
  name: 'Fake X User',
  profileImageUrl: 'https://pbs.twimg.com/profile_images/1500000000000000001/fake_normal.jpg',
};

const DEFAULT_SETTINGS: FakeXSettings = {
  accessTokenSeconds: 7200,
  codeLifetimeMs: 30_000,
};

/**
 * Request bodies larger than the largest segment X takes (8 MiB, media-limits.ts) and its multipart
 * framing are refused before reading them; a segment just over it gets append's own 400.
 */
const MAX_BODY_BYTES = MAX_SEGMENT_BYTES + 64 * 1024;

/** An API route names X's OpenAPI path and the scopes the token must hold; OAuth routes have neither. */
interface ApiRoute {
  template: string;
  scopes: readonly string[];
  handler: Handler<ApiContext>;
}

type Route = { method: 'GET' | 'POST'; pattern: RegExp; endpoint: XFakeEndpoint } & (
  | { api: ApiRoute }
  | { handler: Handler<RouteContext> }
);

const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/i\/oauth2\/authorize$/, endpoint: 'oauth.authorize', handler: authorizePage },
  { method: 'POST', pattern: /^\/i\/oauth2\/authorize\/decide$/, endpoint: 'oauth.decide', handler: decide },
  { method: 'POST', pattern: /^\/2\/oauth2\/token$/, endpoint: 'oauth.token', handler: token },
  { method: 'POST', pattern: /^\/2\/oauth2\/revoke$/, endpoint: 'oauth.revoke', handler: revoke },
  {
    method: 'GET',
    pattern: /^\/2\/users\/me$/,
    endpoint: 'users.me',
    api: { template: '/2/users/me', scopes: ['users.read', 'tweet.read'], handler: me },
  },
  {
    method: 'GET',
    pattern: /^\/2\/users\/(?<id>[^/]+)\/tweets$/,
    endpoint: 'users.tweets',
    api: { template: '/2/users/{id}/tweets', scopes: ['tweet.read', 'users.read'], handler: userTweets },
  },
  {
    method: 'GET',
    pattern: /^\/2\/tweets$/,
    endpoint: 'tweets.lookup',
    api: { template: '/2/tweets', scopes: ['tweet.read', 'users.read'], handler: lookupTweets },
  },
  {
    method: 'POST',
    pattern: /^\/2\/tweets$/,
    endpoint: 'tweets.create',
    api: { template: '/2/tweets', scopes: ['tweet.write', 'tweet.read', 'users.read'], handler: createTweet },
  },
  {
    method: 'GET',
    pattern: /^\/2\/communities\/(?<id>[^/]+)$/,
    endpoint: 'communities.get',
    api: {
      template: '/2/communities/{id}',
      scopes: ['users.read', 'list.read', 'tweet.read'],
      handler: getCommunity,
    },
  },
  {
    method: 'POST',
    pattern: /^\/2\/media\/upload\/initialize$/,
    endpoint: 'media.initialize',
    api: { template: '/2/media/upload/initialize', scopes: ['media.write'], handler: media.initialize },
  },
  {
    method: 'POST',
    pattern: /^\/2\/media\/upload\/(?<id>[^/]+)\/append$/,
    endpoint: 'media.append',
    api: { template: '/2/media/upload/{id}/append', scopes: ['media.write'], handler: media.append },
  },
  {
    method: 'POST',
    pattern: /^\/2\/media\/upload\/(?<id>[^/]+)\/finalize$/,
    endpoint: 'media.finalize',
    api: { template: '/2/media/upload/{id}/finalize', scopes: ['media.write'], handler: media.finalize },
  },
  {
    method: 'GET',
    pattern: /^\/2\/media\/upload$/,
    endpoint: 'media.status',
    api: { template: '/2/media/upload', scopes: ['media.write'], handler: media.status },
  },
  {
    method: 'POST',
    pattern: /^\/2\/media\/metadata$/,
    endpoint: 'media.metadata',
    api: { template: '/2/media/metadata', scopes: ['media.write'], handler: media.metadata },
  },
];

export async function startXFake(options: XFakeOptions = {}): Promise<XFake> {
  const store = new FakeXStore();
  for (const user of options.users ?? [DEFAULT_FAKE_X_USER]) store.users.set(user.id, { ...user });
  const control = new FakeXControlState(store);
  const app: FakeXApp = {
    clientId: options.clientId ?? `fake-x-client-${randomBytes(6).toString('hex')}`,
    clientSecret: options.clientSecret ?? randomBytes(24).toString('base64url'),
    ...(options.redirectUris && { redirectUris: options.redirectUris }),
  };
  const settings: FakeXSettings = { ...DEFAULT_SETTINGS, ...options.settings };
  const validator = new XOpenApiValidator();
  let baseUrl = '';

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', baseUrl);
    const route = ROUTES.find(
      (candidate) => candidate.method === request.method && candidate.pattern.test(url.pathname),
    );
    control.log.push({
      method: request.method ?? '',
      path: url.pathname,
      endpoint: route?.endpoint,
      query: url.search.replace(/^\?/, ''),
    });
    if (!route) {
      request.resume();
      writeReply(response, problems.notFound(`No route ${request.method} ${url.pathname}.`));
      return;
    }
    const injected = control.takeFailure(route.endpoint);
    let body: Buffer;
    try {
      body = await readBody(request, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        writeReply(response, {
          status: 413,
          json: { title: 'Payload Too Large', type: 'about:blank', status: 413 },
        });
        return;
      }
      throw error;
    }
    if (injected) {
      writeReply(response, injected);
      return;
    }
    const context: RouteContext = {
      store,
      control,
      app,
      settings,
      baseUrl,
      url,
      params: { ...route.pattern.exec(url.pathname)?.groups },
      headers: request.headers,
      body,
    };
    const reply =
      'api' in route ? await answerApi(context, route, route.api, validator) : await route.handler(context);
    const delayMs = control.takeDelay(route.endpoint);
    if (delayMs !== undefined) await lateOrGone(delayMs, response);
    writeReply(response, reply);
  };

  const server = await startLoopbackServer(
    handle,
    (response) =>
      writeReply(response, {
        status: 500,
        json: { title: 'Internal Server Error', type: 'about:blank', status: 500 },
      }),
    options.port ?? 0,
  );
  baseUrl = server.baseUrl;
  return {
    apiUrl: baseUrl,
    authorizeUrl: `${baseUrl}/i/oauth2/authorize`,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    control: control.surface(),
    stop: server.stop,
  };
}

/** Waits `delayMs`, or until the client hangs up (then there is no one left to answer). */
function lateOrGone(delayMs: number, response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, delayMs);
    response.once('close', done);
    function done() {
      clearTimeout(timer);
      response.off('close', done);
      resolve();
    }
  });
}

/** Bearer token, scopes, the rate-limit window, the OpenAPI check, then the route's own checks. */
async function answerApi(
  context: RouteContext,
  route: Route,
  api: ApiRoute,
  validator: XOpenApiValidator,
): Promise<Reply> {
  const bearer = /^Bearer\s+(.+)$/i.exec(context.headers.authorization ?? '')?.[1] ?? '';
  const token = context.store.accessTokenFor(bearer);
  const user = token && context.store.users.get(token.userId);
  if (!token || !user) return problems.unauthorized();
  const missing = api.scopes.filter((scope) => !token.scopes.includes(scope));
  if (missing.length > 0) return problems.forbidden(`Missing scopes: ${missing.join(', ')}.`);
  const window = context.control.countCall(route.endpoint, user.id);
  const withHeaders = (reply: Reply): Reply => ({
    ...reply,
    headers: { ...window.headers, ...reply.headers },
  });
  if (window.refused) return withHeaders(problems.tooManyRequests());

  const parsed = await parseBody(context);
  if ('reply' in parsed) return withHeaders(parsed.reply);
  const query = new URLSearchParams(context.url.searchParams);
  // Checked by the route against X's reference instead (users-routes.ts TWEET_FIELDS).
  query.delete('tweet.fields');
  const invalid = validator.validate({
    method: route.method === 'GET' ? 'get' : 'post',
    template: api.template,
    pathParameters: context.params,
    query,
    ...(parsed.body && { body: parsed.body }),
  });
  if (invalid.length > 0) {
    const parameters: Record<string, string[]> = {};
    for (const problem of invalid)
      parameters[problem.where] = [...(parameters[problem.where] ?? []), problem.message];
    return withHeaders(
      problems.invalid(
        invalid.map((problem) => `${problem.where} ${problem.message}`).join('; '),
        parameters,
      ),
    );
  }
  const apiContext: ApiContext = {
    ...context,
    user,
    token,
    json: parsed.body?.contentType === 'application/json' ? parsed.body.value : undefined,
    form: parsed.form,
  };
  return withHeaders(await api.handler(apiContext));
}

type ParsedBody =
  | { reply: Reply }
  | {
      body?:
        | { contentType: 'application/json'; value: unknown }
        | { contentType: 'multipart/form-data'; fields: Record<string, string> };
      form: ApiContext['form'];
    };

/** JSON or multipart, by Content-Type; a JSON append carries its chunk as base64 text. */
async function parseBody(context: RouteContext): Promise<ParsedBody> {
  const form: ApiContext['form'] = { fields: {}, files: {} };
  if (context.body.length === 0) return { form };
  const contentType = context.headers['content-type'] ?? '';
  if (/^application\/json/i.test(contentType)) {
    let value: unknown;
    try {
      value = JSON.parse(context.body.toString('utf8'));
    } catch {
      return { reply: problems.invalid('The request body is not valid JSON.') };
    }
    if (typeof value === 'object' && value !== null && 'media' in value && typeof value.media === 'string') {
      form.files.media = Buffer.from(value.media, 'base64');
      if ('segment_index' in value) form.fields.segment_index = String(value.segment_index);
    }
    return { body: { contentType: 'application/json', value }, form };
  }
  if (/^multipart\/form-data/i.test(contentType)) {
    let entries: FormData;
    try {
      entries = await new Response(context.body, { headers: { 'content-type': contentType } }).formData();
    } catch {
      return { reply: problems.invalid('The multipart body could not be read.') };
    }
    const fields: Record<string, string> = {};
    for (const [name, value] of entries) {
      if (typeof value === 'string') {
        fields[name] = value;
      } else {
        form.files[name] = Buffer.from(await value.arrayBuffer());
        // The OpenAPI schema says `format: binary`: a file stands as text for the check.
        fields[name] = 'binary';
      }
    }
    form.fields = { ...form.fields, ...fields };
    return { body: { contentType: 'multipart/form-data', fields }, form };
  }
  return { reply: problems.invalid(`Content-Type ${contentType || '(none)'} is not accepted.`) };
}

/** X's fake for a whole host (../start.ts): its API, consent page and one app. */
export const fakeNetwork = defineFakeNetwork({
  definition: xDefinition,
  async start() {
    const fake = await startXFake();
    return {
      endpoints: { X_API_URL: fake.apiUrl, X_AUTHORIZE_URL: fake.authorizeUrl },
      apps: { X: { clientId: fake.clientId, clientSecret: fake.clientSecret } },
      stop: fake.stop,
    };
  },
});
