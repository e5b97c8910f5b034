import {
  FAKE_THREADS_DEFAULT_USER,
  startThreadsFake,
  type ThreadsFake,
  type ThreadsFakeOptions,
} from '../../../../infra/fake-networks/threads/index.js';
import type { ContentItem, MediaRef, Post } from '../../../../shared/domain/posts.js';
import type { Account } from '../../../../shared/domain/tenancy.js';
import type { Network } from '../../../../shared/networks/network.js';
import { makeThreadsNetwork } from '../../../../shared/networks/threads/index.js';
import type { DeliveryMedia, PublishOutcome, PublishRequest } from '../../../../shared/ports/connector.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../../../shared/runtime/network-config.js';
import { jpegBytes, LoopbackMediaUrls, storeLoopbackMedia } from '../support/loopback-media.js';
import { firstAttemptRequest } from '../support/publish-request.js';

export { jpegBytes } from '../support/loopback-media.js';

/** Helpers for the Threads connector's tests against its fake, over real HTTP on loopback. */

export const USER = FAKE_THREADS_DEFAULT_USER;
export const CALLBACK = 'http://127.0.0.1:9/v1/oauth/threads/callback';

export interface ThreadsWorld {
  fake: ThreadsFake;
  network: Network;
  urls: LoopbackMediaUrls;
  stop(): Promise<void>;
}

export async function startWorld(options: ThreadsFakeOptions = {}): Promise<ThreadsWorld> {
  const fake = await startThreadsFake(options);
  const urls = new LoopbackMediaUrls();
  await urls.start();
  const network = makeThreadsNetwork({
    endpoints: {
      ...NETWORK_ENDPOINT_DEFAULTS,
      THREADS_GRAPH_URL: fake.graphUrl,
      THREADS_AUTHORIZE_URL: fake.authorizeUrl,
    },
    appCredentials: async () => ({ clientId: fake.clientId, clientSecret: fake.clientSecret }),
  });
  return {
    fake,
    network,
    urls,
    stop: async () => {
      await fake.stop();
      await urls.stop();
    },
  };
}

export function pngBytes(size = 2048): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}

const CREATED_AT = '2026-05-10T09:00:00.000Z';

export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    accountId: 'acc_th',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    platform: 'threads',
    displayName: USER.name,
    handle: `@${USER.username}`,
    status: 'connected',
    sandbox: false,
    connectedAt: CREATED_AT,
    createdAt: CREATED_AT,
    networkUserId: USER.userId,
    ...overrides,
  };
}

export function aPost(overrides: Partial<Post> = {}): Post {
  const at = new Date(Date.now() - 60_000).toISOString();
  return {
    postId: 'pst_th_1',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    accountId: 'acc_th',
    platform: 'threads',
    postType: 'text',
    status: 'publishing',
    content: 'Hello from the fake',
    media: [],
    createdAt: at,
    updatedAt: at,
    attempts: 0,
    createdBy: 'agt_1',
    version: 1,
    ...overrides,
  };
}

export interface Stored {
  delivered: DeliveryMedia;
  ref: MediaRef;
}

/** A stored media item, its bytes behind the loopback URLs: what the worker hands the connector. */
export function storedMedia(
  world: ThreadsWorld,
  kind: 'image' | 'video',
  options: { bytes?: Uint8Array; mimeType?: string; alt?: string } = {},
): Stored {
  const bytes = options.bytes ?? (kind === 'image' ? jpegBytes() : new Uint8Array(4096).fill(7));
  return storeLoopbackMedia(world.urls, kind, bytes, options);
}

/** A post of this type and the request the worker would make for it. */
export function aRequest(
  world: ThreadsWorld,
  accessToken: string,
  post: Partial<Post>,
  media: Stored[] = [],
  overrides: Partial<PublishRequest> = {},
): PublishRequest {
  const built = aPost({
    media: typeof post.content === 'string' || post.content === undefined ? media.map((m) => m.ref) : [],
    ...post,
  });
  return firstAttemptRequest(built, anAccount(), accessToken, world.urls, media, overrides);
}

/** A thread's content: one item per post, each with its media refs. */
export function threadContent(items: { text: string; media?: Stored[] }[]): ContentItem[] {
  return items.map((item) => ({ text: item.text, media: (item.media ?? []).map((m) => m.ref) }));
}

export function userToken(world: ThreadsWorld, options: { ageMs?: number; scopes?: string[] } = {}): string {
  return world.fake.control.issueToken(USER.userId, options);
}

/** Attempts as the worker makes them: each pending outcome's progress handed to the next. */
export async function publishUntilSettled(
  world: ThreadsWorld,
  request: PublishRequest,
  max = 6,
): Promise<PublishOutcome[]> {
  const outcomes: PublishOutcome[] = [];
  let progress = request.progress;
  for (let attempt = request.attempt; attempt < request.attempt + max; attempt += 1) {
    const outcome = await world.network.connector.publish({
      ...request,
      attempt,
      ...(progress && { progress }),
    });
    outcomes.push(outcome);
    if (outcome.kind !== 'pending') break;
    progress = outcome.progress;
  }
  return outcomes;
}

export function published(outcome: PublishOutcome | undefined): {
  platformPostId: string;
  platformPostUrl: string;
} {
  if (outcome?.kind !== 'published') throw new Error(`Expected published, got ${JSON.stringify(outcome)}`);
  return outcome;
}
