import {
  FAKE_TIKTOK_DEFAULT_CREATOR,
  startTikTokFake,
  type TikTokFake,
  type TikTokFakeOptions,
} from '../../../../infra/fake-networks/tiktok/index.js';
import type { Media } from '../../../../shared/domain/media.js';
import type { PlatformOptions } from '../../../../shared/domain/platform-options.js';
import type { Post } from '../../../../shared/domain/posts.js';
import type { Account } from '../../../../shared/domain/tenancy.js';
import type { Network } from '../../../../shared/networks/network.js';
import { makeTikTokNetworkWith, type TikTokTuning } from '../../../../shared/networks/tiktok/index.js';
import type { DeliveryMedia, PublishOutcome, PublishRequest } from '../../../../shared/ports/connector.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../../../shared/runtime/network-config.js';
import { patternBytes, RecordingBytes } from '../support/recording-bytes.js';

export { patternBytes, RecordingBytes };

/** Helpers for the TikTok connector's tests against its fake, over real HTTP on loopback. */

export const CREATOR = FAKE_TIKTOK_DEFAULT_CREATOR;
export const CALLBACK = 'http://127.0.0.1:9/v1/oauth/tiktok/callback';

/** Chunk rules scaled down a thousandfold (KB for MB), the same on both sides, so uploads stay small. */
export const SMALL_CHUNKS = {
  minChunkBytes: 5 * 1024,
  maxChunkBytes: 64 * 1024,
  maxLastChunkBytes: 128 * 1024,
  maxChunks: 1000,
  preferredChunkBytes: 10 * 1024,
};

export interface TikTokWorld {
  fake: TikTokFake;
  network: Network;
  bytes: RecordingBytes;
  stop(): Promise<void>;
}

export async function startWorld(
  options: TikTokFakeOptions = {},
  tuning: TikTokTuning = {},
): Promise<TikTokWorld> {
  const fake = await startTikTokFake({
    ...options,
    settings: {
      minChunkBytes: SMALL_CHUNKS.minChunkBytes,
      maxChunkBytes: SMALL_CHUNKS.maxChunkBytes,
      maxLastChunkBytes: SMALL_CHUNKS.maxLastChunkBytes,
      ...options.settings,
    },
  });
  const network = makeTikTokNetworkWith({ chunkRules: SMALL_CHUNKS, ...tuning })({
    endpoints: {
      ...NETWORK_ENDPOINT_DEFAULTS,
      TIKTOK_API_URL: fake.apiUrl,
      TIKTOK_AUTHORIZE_URL: fake.authorizeUrl,
    },
    appCredentials: async () => ({ clientId: fake.clientId, clientSecret: fake.clientSecret }),
  });
  return { fake, network, bytes: new RecordingBytes(), stop: () => fake.stop() };
}

const CREATED_AT = '2026-05-10T09:00:00.000Z';

export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    accountId: 'acc_tt',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    platform: 'tiktok',
    displayName: CREATOR.displayName,
    handle: `@${CREATOR.username}`,
    status: 'connected',
    sandbox: false,
    connectedAt: CREATED_AT,
    createdAt: CREATED_AT,
    networkUserId: CREATOR.openId,
    ...overrides,
  };
}

export function aPost(
  overrides: Partial<Post> = {},
  tiktok: PlatformOptions['tiktok'] = { privacyLevel: 'PUBLIC_TO_EVERYONE' },
): Post {
  const at = new Date().toISOString();
  return {
    postId: 'pst_tt_1',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    accountId: 'acc_tt',
    platform: 'tiktok',
    postType: 'video',
    status: 'publishing',
    content: 'Dance #fyp',
    media: [],
    createdAt: at,
    updatedAt: at,
    attempts: 0,
    createdBy: 'agt_1',
    version: 1,
    ...(tiktok && { platformOptions: { tiktok } }),
    ...overrides,
  };
}

/** A stored media item, its bytes put in the bucket: what the worker hands the connector. */
export function stored(
  bytes: RecordingBytes,
  kind: 'video' | 'image',
  content: Uint8Array,
  options: { id?: string; mimeType?: string; sizeBytes?: number } = {},
): DeliveryMedia {
  const mediaId = options.id ?? `med_${kind}_${bytes.objects.size + 1}`;
  const objectKey = `t/ten_1/w/wks_1/m/${mediaId}`;
  bytes.put(objectKey, content);
  const mimeType = options.mimeType ?? (kind === 'video' ? 'video/mp4' : 'image/jpeg');
  const media: Media = {
    mediaId,
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    filename: `${mediaId}.${mimeType.split('/')[1]}`,
    mimeType,
    sizeBytes: options.sizeBytes ?? content.length,
    status: 'uploaded',
    objectKey,
    source: 'upload',
    createdAt: CREATED_AT,
  };
  return { kind, stored: media };
}

export function aRequest(
  world: TikTokWorld,
  accessToken: string,
  overrides: Partial<PublishRequest> = {},
): PublishRequest {
  const post = overrides.post ?? aPost();
  return {
    post,
    account: anAccount(),
    credentials: { accessToken },
    bytes: world.bytes,
    attempt: 1,
    clientReference: post.postId,
    media: [],
    signal: AbortSignal.timeout(10_000),
    ...overrides,
  };
}

export function creatorToken(world: TikTokWorld): string {
  return world.fake.control.issueToken();
}

/** Publishes, then keeps re-publishing with the returned progress while it is `pending`, as the worker would. */
export async function publishUntilSettled(
  world: TikTokWorld,
  request: PublishRequest,
  maxRounds = 20,
): Promise<{ outcome: PublishOutcome; rounds: PublishOutcome[] }> {
  const rounds: PublishOutcome[] = [];
  let current = request;
  for (let round = 0; round < maxRounds; round += 1) {
    const outcome = await world.network.connector.publish(current);
    rounds.push(outcome);
    if (outcome.kind !== 'pending') return { outcome, rounds };
    current = { ...current, progress: outcome.progress, attempt: current.attempt + 1 };
  }
  throw new Error('Still pending after every round.');
}
