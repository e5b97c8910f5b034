import type { IncomingMessage, ServerResponse } from 'node:http';
import { linkedinDefinition } from '../../../shared/networks/linkedin/definition.js';
import { defineFakeNetwork } from '../fake-network.js';
import { startLoopbackServer } from '../shared/server.js';
import { type FakeLinkedInControl, FakeLinkedInControlState, makeControl } from './control.js';
import { BodyTooLarge, readBody, replies, writeReply } from './http.js';
import {
  FAKE_LINKEDIN_PRODUCTS,
  type FakeLinkedInApp,
  type FakeLinkedInProduct,
  type FakeLinkedInSettings,
} from './route.js';
import { findRoute, run } from './routes.js';
import { type FakeAcl, FakeLinkedInStore, type FakeMediaKind, type FakeMember } from './store.js';

export type { FakeLinkedInControl, FakeLinkedInEndpoint } from './control.js';
export { FAKE_LINKEDIN_ENDPOINTS } from './control.js';
export { linkedInError } from './http.js';
export type { FakeLinkedInProduct } from './route.js';
export { FAKE_LINKEDIN_PRODUCTS } from './route.js';
export type { FakeAcl, FakeComment, FakeMember, FakePost, FakeUpload } from './store.js';

const MB = 1024 * 1024;

/** The products of a member app: signing in (OpenID Connect) and posting as the member. */
export const FAKE_LINKEDIN_MEMBER_PRODUCTS: readonly FakeLinkedInProduct[] = [
  'SIGN_IN_WITH_LINKEDIN_OPENID_CONNECT',
  'SHARE_ON_LINKEDIN',
];
/** A Community Management app's one product: posting as the member and as their Pages. */
export const FAKE_LINKEDIN_COMMUNITY_PRODUCTS: readonly FakeLinkedInProduct[] = ['COMMUNITY_MANAGEMENT_API'];

export const FAKE_LINKEDIN_DEFAULT_MEMBER: FakeMember = {
  sub: 'fakeMember1',
  name: 'Ada Lovelace',
  givenName: 'Ada',
  familyName: 'Lovelace',
  email: 'ada@example.com',
  picture: 'https://media.licdn.com/dms/image/fake/ada.jpg',
  vanityName: 'ada-lovelace',
};

/** A Page the default member administers, so a Page post can be tried with no setup. */
export const FAKE_LINKEDIN_DEFAULT_PAGE = 'urn:li:organization:2414183';

/** One developer app the fake knows. */
export interface FakeLinkedInAppOptions {
  clientId: string;
  /** Random per start by default. */
  clientSecret?: string;
  /** What the app holds; the Community Management API only alone, as the portal allows. */
  products: readonly FakeLinkedInProduct[];
  redirectUris?: string[];
  /** Whether the app is approved for programmatic refresh (default: the fake's `issueRefreshTokens`). */
  issueRefreshTokens?: boolean;
}

/** The fake's apps unless told: a member app and a Community Management app, as an operator has. */
export const FAKE_LINKEDIN_DEFAULT_APPS: readonly FakeLinkedInAppOptions[] = [
  { clientId: 'fake-linkedin-client', products: FAKE_LINKEDIN_MEMBER_PRODUCTS },
  { clientId: 'fake-linkedin-community-client', products: FAKE_LINKEDIN_COMMUNITY_PRODUCTS },
];

export interface LinkedInFakeOptions {
  /** The developer apps it knows (default FAKE_LINKEDIN_DEFAULT_APPS); the first is `clientId`'s. */
  apps?: readonly FakeLinkedInAppOptions[];
  /** Whether apps are approved for programmatic refresh (default false, like most apps). */
  issueRefreshTokens?: boolean;
  /** Default: FAKE_LINKEDIN_DEFAULT_MEMBER; the consent page signs in as the first by default. */
  members?: FakeMember[];
  /** Members' Page roles (default: the default member administers FAKE_LINKEDIN_DEFAULT_PAGE). */
  acls?: FakeAcl[];
  /** Status checks answered PROCESSING after an upload (default video 1, document 1, image 0). */
  processingChecks?: Partial<Record<FakeMediaKind, number>>;
  /** Video part size (default 4 MiB, as LinkedIn). */
  videoPartBytes?: number;
  /** Largest file per kind (default image 36 MB, video 500 MB, document 100 MB). */
  maxBytes?: Partial<Record<FakeMediaKind, number>>;
  /** `LinkedIn-Version` months served (default 202508 to 202612). */
  activeVersions?: string[];
  accessTokenSeconds?: number;
  refreshTokenSeconds?: number;
  /** Analytics reads a member may make a UTC day per finder before 429 (default 500). */
  metricsDailyLimit?: number;
  /** The fake's clock: token expiry, post times, and the analytics numbers that grow with it. */
  now?: () => number;
}

/** An app as a test configures its client: the credentials and what its products grant. */
export interface FakeLinkedInAppCredentials {
  clientId: string;
  clientSecret: string;
  products: readonly FakeLinkedInProduct[];
  scopes: readonly string[];
}

export interface LinkedInFake {
  /** LINKEDIN_API_URL. */
  apiUrl: string;
  /** LINKEDIN_OAUTH_URL. */
  oauthUrl: string;
  /** The first app's client (the member app by default). */
  clientId: string;
  clientSecret: string;
  apps: readonly FakeLinkedInAppCredentials[];
  /** The first app holding this product, if any. */
  appWith(product: FakeLinkedInProduct): FakeLinkedInAppCredentials | undefined;
  control: FakeLinkedInControl;
  stop(): Promise<void>;
}

function months(from: string, to: string): Set<string> {
  const out = new Set<string>();
  let year = Number(from.slice(0, 4));
  let month = Number(from.slice(4));
  while (`${year}${String(month).padStart(2, '0')}` <= to) {
    out.add(`${year}${String(month).padStart(2, '0')}`);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return out;
}

/**
 * An HTTP fake of LinkedIn's API and OAuth (networks/linkedin.md), on loopback at a free port: it
 * checks requests as LinkedIn does (bearer token, the version headers, body shapes, owners and
 * roles, upload parts and their ETags) and answers as LinkedIn does, and its control surface lets
 * a test inject failures and read what was posted, uploaded and issued.
 */
export async function startLinkedInFake(options: LinkedInFakeOptions = {}): Promise<LinkedInFake> {
  const store = new FakeLinkedInStore();
  const settings: FakeLinkedInSettings = {
    accessTokenSeconds: options.accessTokenSeconds ?? 60 * 24 * 60 * 60,
    refreshTokenSeconds: options.refreshTokenSeconds ?? 365 * 24 * 60 * 60,
    codeLifetimeMs: 30 * 60 * 1000,
    activeVersions: new Set(options.activeVersions ?? months('202508', '202612')),
    videoPartBytes: options.videoPartBytes ?? 4 * MB,
    maxBytes: { image: 36 * MB, video: 500 * MB, document: 100 * MB, ...options.maxBytes },
    maxCommentary: 3000,
    // LinkedIn's page states none; 1,250 is what its partners document.
    maxComment: 1250,
    metricsDailyLimit: options.metricsDailyLimit ?? 500,
    // Ours, not LinkedIn's (it documents none): the fake holds the connector to it.
    pagePostsPerRequest: 20,
    now: options.now ?? Date.now,
  };
  store.startedAt = settings.now();
  const apps = new Map<string, FakeLinkedInApp>();
  for (const given of options.apps ?? FAKE_LINKEDIN_DEFAULT_APPS) {
    if (given.products.includes('COMMUNITY_MANAGEMENT_API') && given.products.length > 1) {
      throw new Error('The Community Management API must be the only product on its LinkedIn app.');
    }
    apps.set(given.clientId, {
      clientId: given.clientId,
      clientSecret: given.clientSecret ?? store.secret(24),
      products: [...given.products],
      scopes: [...new Set(given.products.flatMap((product) => FAKE_LINKEDIN_PRODUCTS[product]))],
      issueRefreshTokens: given.issueRefreshTokens ?? options.issueRefreshTokens ?? false,
      ...(given.redirectUris && { redirectUris: given.redirectUris }),
    });
  }
  const credentials = [...apps.values()].map(({ clientId, clientSecret, products, scopes }) => ({
    clientId,
    clientSecret,
    products,
    scopes,
  }));
  const [first] = credentials;
  if (!first) throw new Error('The LinkedIn fake needs at least one app.');
  for (const member of options.members ?? [FAKE_LINKEDIN_DEFAULT_MEMBER])
    store.members.set(member.sub, member);
  store.acls.push(
    ...(options.acls ?? [
      {
        member: FAKE_LINKEDIN_DEFAULT_MEMBER.sub,
        organization: FAKE_LINKEDIN_DEFAULT_PAGE,
        role: 'ADMINISTRATOR',
        state: 'APPROVED',
      },
    ]),
  );
  const controlState = new FakeLinkedInControlState({
    image: 0,
    video: 1,
    document: 1,
    ...options.processingChecks,
  });
  let baseUrl = '';

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', baseUrl);
    const found = findRoute(request.method ?? '', url);
    controlState.seen.push({
      endpoint: found?.endpoint ?? 'unknown',
      method: request.method ?? '',
      path: url.pathname,
      query: url.search,
      ...(typeof request.headers['linkedin-version'] === 'string' && {
        linkedInVersion: request.headers['linkedin-version'],
      }),
      ...(typeof request.headers['x-restli-protocol-version'] === 'string' && {
        restliProtocolVersion: request.headers['x-restli-protocol-version'],
      }),
    });
    if (!found) {
      request.resume();
      writeReply(response, replies.notFound('Resource not found.'));
      return;
    }
    const failure = controlState.take(found.endpoint);
    if (failure?.kind === 'reset') {
      request.socket.destroy();
      return;
    }
    let body: Buffer;
    try {
      body = await readBody(request, found.route.maxBody(settings));
    } catch (error) {
      if (error instanceof BodyTooLarge)
        writeReply(response, replies.tooLarge('The request body is too large.'));
      else request.socket.destroy();
      return;
    }
    if (failure?.kind === 'reply') {
      writeReply(response, failure.reply);
      return;
    }
    const reply = await run(found.route, {
      store,
      control: controlState,
      apps,
      settings,
      baseUrl,
      url,
      params: found.params,
      headers: request.headers,
      body,
    });
    if (failure?.kind === 'delayAfter') {
      // Done, and the answer held back past the client's patience.
      server.later(failure.ms, () => writeReply(response, reply));
      return;
    }
    writeReply(response, reply);
  };

  const server = await startLoopbackServer(answer, (response) => {
    if (!response.headersSent)
      writeReply(response, { status: 500, json: { status: 500, message: 'Internal error' } });
  });
  baseUrl = server.baseUrl;

  return {
    apiUrl: baseUrl,
    oauthUrl: `${baseUrl}/oauth/v2`,
    clientId: first.clientId,
    clientSecret: first.clientSecret,
    apps: credentials,
    appWith: (product) => credentials.find((app) => app.products.includes(product)),
    control: makeControl(controlState, store, settings, first.clientId),
    stop: server.stop,
  };
}

/**
 * LinkedIn's fake for a whole host (../start.ts): its default apps, a member app (the default) and
 * a Community Management app, both approved for refresh tokens.
 */
export const fakeNetwork = defineFakeNetwork({
  definition: linkedinDefinition,
  async start() {
    const fake = await startLinkedInFake({ issueRefreshTokens: true });
    const community = fake.appWith('COMMUNITY_MANAGEMENT_API');
    return {
      endpoints: { LINKEDIN_API_URL: fake.apiUrl, LINKEDIN_OAUTH_URL: fake.oauthUrl },
      apps: {
        LINKEDIN: { clientId: fake.clientId, clientSecret: fake.clientSecret },
        ...(community && {
          LINKEDIN_COMMUNITY: { clientId: community.clientId, clientSecret: community.clientSecret },
        }),
      },
      stop: fake.stop,
    };
  },
});
