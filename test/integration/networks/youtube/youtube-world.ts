import {
  FAKE_YOUTUBE_DEFAULT_CHANNEL,
  startYouTubeFake,
  type YouTubeFake,
  type YouTubeFakeOptions,
} from '../../../../infra/fake-networks/youtube/index.js';
import type { Media } from '../../../../shared/domain/media.js';
import type { Post } from '../../../../shared/domain/posts.js';
import type { Account } from '../../../../shared/domain/tenancy.js';
import type { Network } from '../../../../shared/networks/network.js';
import { makeYouTubeNetworkWith, type YouTubeTuning } from '../../../../shared/networks/youtube/index.js';
import type { DeliveryMedia, PublishRequest } from '../../../../shared/ports/connector.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../../../shared/runtime/network-config.js';
import { patternBytes, RecordingBytes } from '../support/recording-bytes.js';

/** Helpers for the YouTube connector's tests against its fake, over real HTTP on loopback. */

export const CHANNEL = FAKE_YOUTUBE_DEFAULT_CHANNEL;
export const CALLBACK = 'http://127.0.0.1:9/v1/oauth/youtube/callback';
export const KIB = 1024;

export interface YouTubeWorld {
  fake: YouTubeFake;
  network: Network;
  bytes: RecordingBytes;
  stop(): Promise<void>;
}

/** Chunks of 256 KiB by default, so a test file of a few hundred KiB takes several PUTs. */
export async function startWorld(
  options: YouTubeFakeOptions = {},
  tuning: YouTubeTuning = {},
): Promise<YouTubeWorld> {
  const fake = await startYouTubeFake(options);
  const network = makeYouTubeNetworkWith({ chunkBytes: 256 * KIB, ...tuning })({
    endpoints: {
      ...NETWORK_ENDPOINT_DEFAULTS,
      YOUTUBE_API_URL: fake.apiUrl,
      YOUTUBE_UPLOAD_URL: fake.uploadUrl,
      YOUTUBE_ANALYTICS_API_URL: fake.analyticsUrl,
      GOOGLE_AUTHORIZE_URL: fake.authorizeUrl,
      GOOGLE_TOKEN_URL: fake.tokenUrl,
    },
    appCredentials: async () => ({ clientId: fake.clientId, clientSecret: fake.clientSecret }),
  });
  return { fake, network, bytes: new RecordingBytes(), stop: () => fake.stop() };
}

const CREATED_AT = '2026-05-10T09:00:00.000Z';

export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    accountId: 'acc_yt',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    platform: 'youtube',
    displayName: CHANNEL.title,
    handle: CHANNEL.customUrl,
    status: 'connected',
    sandbox: false,
    connectedAt: CREATED_AT,
    createdAt: CREATED_AT,
    networkUserId: CHANNEL.id,
    ...overrides,
  };
}

export function aPost(overrides: Partial<Post> = {}): Post {
  const at = new Date().toISOString();
  return {
    postId: 'pst_yt_1',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    accountId: 'acc_yt',
    platform: 'youtube',
    postType: 'video',
    status: 'publishing',
    content: 'Launch day\nEverything about the launch.',
    media: [{ id: 'med_video_1' }],
    createdAt: at,
    updatedAt: at,
    attempts: 0,
    createdBy: 'agt_1',
    version: 1,
    ...overrides,
  };
}

/** A stored video, its bytes put in the bucket: what the worker hands the connector. */
export function storedVideo(
  bytes: RecordingBytes,
  content: Uint8Array,
  mediaId = 'med_video_1',
): DeliveryMedia {
  const objectKey = `t/ten_1/w/wks_1/m/${mediaId}`;
  bytes.put(objectKey, content);
  const stored: Media = {
    mediaId,
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    filename: `${mediaId}.mp4`,
    mimeType: 'video/mp4',
    sizeBytes: content.length,
    status: 'uploaded',
    objectKey,
    source: 'upload',
    createdAt: CREATED_AT,
  };
  return { kind: 'video', stored };
}

export function aRequest(
  world: YouTubeWorld,
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
    signal: AbortSignal.timeout(10_000),
    ...overrides,
    // Only when the test gives none: storing the default would replace a test's bytes under the same key.
    media: overrides.media ?? [storedVideo(world.bytes, patternBytes(600 * KIB))],
  };
}

/** A token for the default channel as the connect flow would get it (the service's scopes). */
export function channelToken(
  world: YouTubeWorld,
  scopes: readonly string[] = world.network.oauth.scopes,
): string {
  return world.fake.control.issueToken(CHANNEL.id, [...scopes]);
}

export { patternBytes, RecordingBytes };

/** A JPEG's first bytes, then filler: enough for the fake to know the image's kind. */
export function jpegBytes(size: number): Uint8Array {
  const bytes = patternBytes(size);
  bytes.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return bytes;
}

/** A stored image (a thumbnail), its bytes put in the bucket, as the worker resolves `optionMedia`. */
export function storedImage(
  bytes: RecordingBytes,
  content: Uint8Array,
  { mediaId = 'med_thumb1', mimeType = 'image/jpeg' }: { mediaId?: string; mimeType?: string } = {},
): DeliveryMedia {
  const objectKey = `t/ten_1/w/wks_1/m/${mediaId}`;
  bytes.put(objectKey, content);
  const stored: Media = {
    mediaId,
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    filename: `${mediaId}.jpg`,
    mimeType,
    sizeBytes: content.length,
    status: 'uploaded',
    objectKey,
    source: 'upload',
    createdAt: CREATED_AT,
  };
  return { kind: 'image', stored };
}
