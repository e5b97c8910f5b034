import {
  FAKE_FACEBOOK_DEFAULT_USER,
  type FacebookFake,
  type FacebookFakeOptions,
  startFacebookFake,
} from '../../../../infra/fake-networks/facebook/index.js';
import type { MediaRef, Post } from '../../../../shared/domain/posts.js';
import type { Account } from '../../../../shared/domain/tenancy.js';
import { makeFacebookNetwork } from '../../../../shared/networks/facebook/index.js';
import type { Network } from '../../../../shared/networks/network.js';
import type { DeliveryMedia, PublishRequest } from '../../../../shared/ports/connector.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../../../shared/runtime/network-config.js';
import { movieFile } from '../../../support/video-files.js';
import { jpegBytes, LoopbackMediaUrls, storeLoopbackMedia } from '../support/loopback-media.js';
import { firstAttemptRequest } from '../support/publish-request.js';

/** Helpers for the Facebook Pages connector's tests against its fake, over real HTTP on loopback. */

export { jpegBytes, pngBytes } from '../support/loopback-media.js';

export const USER = FAKE_FACEBOOK_DEFAULT_USER;
/** The Page the tests publish to (CREATE_CONTENT). */
export const PAGE = USER.pages[0] as NonNullable<(typeof USER.pages)[0]>;
export const CALLBACK = 'http://127.0.0.1:9/v1/oauth/facebook/callback';

export interface FacebookWorld {
  fake: FacebookFake;
  network: Network;
  urls: LoopbackMediaUrls;
  /** A Page token of PAGE, as a connect stores it. */
  pageToken(): string;
  stop(): Promise<void>;
}

export async function startWorld(options: FacebookFakeOptions = {}): Promise<FacebookWorld> {
  const fake = await startFacebookFake(options);
  const urls = new LoopbackMediaUrls();
  await urls.start();
  const network = makeFacebookNetwork({
    endpoints: {
      ...NETWORK_ENDPOINT_DEFAULTS,
      FACEBOOK_GRAPH_URL: fake.graphUrl,
      FACEBOOK_AUTHORIZE_URL: fake.authorizeUrl,
      FACEBOOK_GRAPH_VIDEO_URL: fake.graphVideoUrl,
      FACEBOOK_RUPLOAD_URL: fake.ruploadUrl,
    },
    appCredentials: async () => ({ clientId: fake.clientId, clientSecret: fake.clientSecret }),
  });
  return {
    fake,
    network,
    urls,
    pageToken: () => fake.control.issuePageToken(PAGE.pageId),
    stop: async () => {
      await fake.stop();
      await urls.stop();
    },
  };
}

const CREATED_AT = '2026-05-10T09:00:00.000Z';

export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    accountId: 'acc_fb',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    platform: 'facebook',
    displayName: PAGE.name,
    handle: `@${PAGE.username}`,
    status: 'connected',
    sandbox: false,
    connectedAt: CREATED_AT,
    createdAt: CREATED_AT,
    networkUserId: PAGE.pageId,
    ...overrides,
  };
}

export function aPost(overrides: Partial<Post> = {}): Post {
  const at = new Date(Date.now() - 60_000).toISOString();
  return {
    postId: 'pst_fb_1',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    accountId: 'acc_fb',
    platform: 'facebook',
    postType: 'text',
    status: 'publishing',
    content: 'Fresh sourdough from 7am',
    media: [],
    createdAt: at,
    updatedAt: at,
    attempts: 0,
    createdBy: 'agt_1',
    version: 1,
    ...overrides,
  };
}

/** A 9:16 MP4 of `seconds` (what a reel must be). */
export function reelBytes(
  seconds = 10,
  size: { width: number; height: number } = { width: 1080, height: 1920 },
): Uint8Array {
  return new Uint8Array(movieFile({ durationSeconds: seconds, ...size }));
}

/** A stored media item, its bytes behind the loopback URLs: what the worker hands the connector. */
export function storedMedia(
  world: FacebookWorld,
  kind: 'image' | 'video',
  options: { id?: string; bytes?: Uint8Array; mimeType?: string; alt?: string; sizeBytes?: number } = {},
): { delivered: DeliveryMedia; ref: MediaRef } {
  const bytes = options.bytes ?? (kind === 'image' ? jpegBytes() : reelBytes());
  return storeLoopbackMedia(world.urls, kind, bytes, options);
}

/** A post of this type with these media, and the request the worker would make for it. */
export function aRequest(
  world: FacebookWorld,
  postType: Post['postType'],
  media: { delivered: DeliveryMedia; ref: MediaRef }[] = [],
  overrides: Partial<PublishRequest> & { postOverrides?: Partial<Post>; accessToken?: string } = {},
): PublishRequest {
  const { postOverrides, accessToken, ...rest } = overrides;
  const post = aPost({ postType, media: media.map((item) => item.ref), ...postOverrides });
  return firstAttemptRequest(post, anAccount(), accessToken ?? world.pageToken(), world.urls, media, rest);
}
