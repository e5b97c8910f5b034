import {
  FAKE_INSTAGRAM_DEFAULT_USER,
  type InstagramFake,
  type InstagramFakeOptions,
  startInstagramFake,
} from '../../../../infra/fake-networks/instagram/index.js';
import type { MediaRef, Post } from '../../../../shared/domain/posts.js';
import type { Account } from '../../../../shared/domain/tenancy.js';
import { makeInstagramNetwork } from '../../../../shared/networks/instagram/index.js';
import type { Network } from '../../../../shared/networks/network.js';
import type { DeliveryMedia, PublishRequest } from '../../../../shared/ports/connector.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../../../shared/runtime/network-config.js';
import { jpegBytes, LoopbackMediaUrls, storeLoopbackMedia } from '../support/loopback-media.js';
import { firstAttemptRequest } from '../support/publish-request.js';

export { jpegBytes, LoopbackMediaUrls, pngBytes } from '../support/loopback-media.js';

/** Helpers for the Instagram connector's tests against its fake, over real HTTP on loopback. */

export const USER = FAKE_INSTAGRAM_DEFAULT_USER;
export const CALLBACK = 'http://127.0.0.1:9/v1/oauth/instagram/callback';

export interface InstagramWorld {
  fake: InstagramFake;
  network: Network;
  urls: LoopbackMediaUrls;
  stop(): Promise<void>;
}

export async function startWorld(options: InstagramFakeOptions = {}): Promise<InstagramWorld> {
  const fake = await startInstagramFake(options);
  const urls = new LoopbackMediaUrls();
  await urls.start();
  const network = makeInstagramNetwork({
    endpoints: {
      ...NETWORK_ENDPOINT_DEFAULTS,
      INSTAGRAM_GRAPH_URL: fake.graphUrl,
      INSTAGRAM_OAUTH_URL: fake.oauthUrl,
      INSTAGRAM_AUTHORIZE_URL: fake.authorizeUrl,
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

const CREATED_AT = '2026-05-10T09:00:00.000Z';

export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    accountId: 'acc_ig',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    platform: 'instagram',
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
    postId: 'pst_ig_1',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    accountId: 'acc_ig',
    platform: 'instagram',
    postType: 'image',
    status: 'publishing',
    content: 'Golden hour #sunset',
    media: [],
    createdAt: at,
    updatedAt: at,
    attempts: 0,
    createdBy: 'agt_1',
    version: 1,
    ...overrides,
  };
}

/** A stored media item, its bytes behind the loopback URLs: what the worker hands the connector. */
export function storedMedia(
  world: InstagramWorld,
  kind: 'image' | 'video',
  options: {
    id?: string;
    bytes?: Uint8Array;
    mimeType?: string;
    alt?: string;
    userTags?: MediaRef['userTags'];
  } = {},
): { delivered: DeliveryMedia; ref: MediaRef } {
  const bytes = options.bytes ?? (kind === 'image' ? jpegBytes() : new Uint8Array(4096).fill(7));
  const { delivered, ref } = storeLoopbackMedia(world.urls, kind, bytes, options);
  return { delivered, ref: { ...ref, ...(options.userTags && { userTags: options.userTags }) } };
}

/** A post of this type with these media, and the request the worker would make for it. */
export function aRequest(
  world: InstagramWorld,
  accessToken: string,
  postType: Post['postType'],
  media: { delivered: DeliveryMedia; ref: MediaRef }[],
  overrides: Partial<PublishRequest> & { postOverrides?: Partial<Post> } = {},
): PublishRequest {
  const { postOverrides, ...rest } = overrides;
  const post = aPost({ postType, media: media.map((item) => item.ref), ...postOverrides });
  return firstAttemptRequest(post, anAccount(), accessToken, world.urls, media, rest);
}

export function userToken(
  world: InstagramWorld,
  options: { ageMs?: number; scopes?: string[] } = {},
): string {
  return world.fake.control.issueToken(USER.userId, options);
}
