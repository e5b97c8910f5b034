import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  FAKE_INSTAGRAM_DEFAULT_USER,
  type InstagramFake,
  type InstagramFakeOptions,
  startInstagramFake,
} from '../../../../infra/fake-networks/instagram/index.js';
import type { Media } from '../../../../shared/domain/media.js';
import type { MediaRef, Post } from '../../../../shared/domain/posts.js';
import type { Account } from '../../../../shared/domain/tenancy.js';
import { makeInstagramNetwork } from '../../../../shared/networks/instagram/index.js';
import type { Network } from '../../../../shared/networks/network.js';
import type { DeliveryMedia, PublishRequest } from '../../../../shared/ports/connector.js';
import type { MediaUrls } from '../../../../shared/ports/media-urls.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../../../shared/runtime/network-config.js';

/** Helpers for the Instagram connector's tests against its fake, over real HTTP on loopback. */

export const USER = FAKE_INSTAGRAM_DEFAULT_USER;
export const CALLBACK = 'http://127.0.0.1:9/v1/oauth/instagram/callback';

/**
 * The media bucket's presigned GETs, as a loopback server: each URL carries a signature and an
 * expiry, and the server refuses a URL past it, as S3 does. It records what was presigned.
 */
export class LoopbackMediaUrls implements MediaUrls {
  readonly objects = new Map<string, { bytes: Uint8Array; contentType: string }>();
  readonly presigned: { key: string; expiresInSeconds: number }[] = [];
  private baseUrl = '';
  private readonly server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', this.baseUrl);
    const key = decodeURIComponent(url.pathname.slice(1));
    const expires = Number(url.searchParams.get('X-Amz-Expires-At'));
    const object = this.objects.get(key);
    if (!object || url.searchParams.get('X-Amz-Signature') !== 'fake' || !(expires > Date.now())) {
      response.writeHead(403).end();
      return;
    }
    response.writeHead(200, { 'content-type': object.contentType, 'content-length': object.bytes.length });
    response.end(object.bytes);
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  put(key: string, bytes: Uint8Array, contentType: string): void {
    this.objects.set(key, { bytes, contentType });
  }

  async presignGet(objectKey: string, expiresInSeconds: number): Promise<string> {
    this.presigned.push({ key: objectKey, expiresInSeconds });
    const url = new URL(`${this.baseUrl}/${encodeURIComponent(objectKey)}`);
    url.searchParams.set('X-Amz-Expires-At', String(Date.now() + expiresInSeconds * 1000));
    url.searchParams.set('X-Amz-Signature', 'fake');
    return url.toString();
  }
}

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

/** A small JPEG-looking file: the JPEG magic bytes, then filler. */
export function jpegBytes(size = 2048): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  for (let i = 4; i < size; i += 1) bytes[i] = i % 251;
  return bytes;
}

export function pngBytes(size = 2048): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47]);
  return bytes;
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
  const mediaId = options.id ?? `med_${kind}_${world.urls.objects.size + 1}`;
  const objectKey = `t/ten_1/w/wks_1/m/${mediaId}`;
  const mimeType = options.mimeType ?? (kind === 'image' ? 'image/jpeg' : 'video/mp4');
  const bytes = options.bytes ?? (kind === 'image' ? jpegBytes() : new Uint8Array(4096).fill(7));
  world.urls.put(objectKey, bytes, mimeType);
  const stored: Media = {
    mediaId,
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    filename: `${mediaId}.${mimeType.split('/')[1]}`,
    mimeType,
    sizeBytes: bytes.length,
    status: 'uploaded',
    objectKey,
    source: 'upload',
    createdAt: CREATED_AT,
  };
  return {
    delivered: { kind, stored, ...(options.alt && { alt: options.alt }) },
    ref: {
      id: mediaId,
      ...(options.alt && { alt: options.alt }),
      ...(options.userTags && { userTags: options.userTags }),
    },
  };
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
  return {
    post,
    account: anAccount(),
    credentials: { accessToken },
    mediaUrls: world.urls,
    attempt: 1,
    clientReference: post.postId,
    media: media.map((item) => item.delivered),
    signal: AbortSignal.timeout(10_000),
    ...rest,
  };
}

export function userToken(
  world: InstagramWorld,
  options: { ageMs?: number; scopes?: string[] } = {},
): string {
  return world.fake.control.issueToken(USER.userId, options);
}
