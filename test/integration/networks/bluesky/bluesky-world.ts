import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import {
  type BlueskyFake,
  type BlueskyFakeOptions,
  FAKE_BLUESKY_DEFAULT_USER,
  startBlueskyFake,
} from '../../../../infra/fake-networks/bluesky/index.js';
import type { Media } from '../../../../shared/domain/media.js';
import type { ContentItem, MediaRef, Post } from '../../../../shared/domain/posts.js';
import type { Account } from '../../../../shared/domain/tenancy.js';
import { makeBlueskyNetwork } from '../../../../shared/networks/bluesky/index.js';
import type { Network } from '../../../../shared/networks/network.js';
import type { DeliveryMedia, PublishRequest } from '../../../../shared/ports/connector.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../../../shared/runtime/network-config.js';
import { consentAt } from '../../../e2e/support/consent.js';
import { RecordingBytes } from '../support/recording-bytes.js';

/** Helpers for the Bluesky connector's tests against its fake, over real HTTP on loopback. */

export const USER = FAKE_BLUESKY_DEFAULT_USER;
export const CALLBACK = 'http://127.0.0.1:9/v1/oauth/bluesky/callback';

export interface BlueskyWorld {
  fake: BlueskyFake;
  network: Network;
  bytes: RecordingBytes;
  stop(): Promise<void>;
}

export async function startWorld(options: BlueskyFakeOptions = {}): Promise<BlueskyWorld> {
  const fake = await startBlueskyFake(options);
  const network = makeBlueskyNetwork({
    endpoints: {
      ...NETWORK_ENDPOINT_DEFAULTS,
      BLUESKY_ENTRYWAY_URL: fake.entrywayUrl,
      BLUESKY_PLC_URL: fake.plcUrl,
      BLUESKY_VIDEO_URL: fake.videoUrl,
    },
    appCredentials: async () => ({ clientId: fake.clientId, clientSecret: fake.clientSecret }),
  });
  return { fake, network, bytes: new RecordingBytes(), stop: () => fake.stop() };
}

/** S256 of a verifier, as the connect flow computes the challenge. */
async function challengeOf(verifier: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(verifier).digest('base64url');
}

/** A whole connect through the fake's consent page: PAR, consent, the code exchanged. */
export async function connect(world: BlueskyWorld, state = 'st_1'): Promise<TokenSet> {
  const verifier = randomBytes(32).toString('base64url');
  const oauth = world.network.oauth;
  if (!oauth.pushedAuthorizationUrl) throw new Error('Bluesky pushes its authorization requests.');
  const url = await oauth.pushedAuthorizationUrl(
    {
      clientId: world.fake.clientId,
      state,
      redirectUri: CALLBACK,
      codeChallenge: await challengeOf(verifier),
    },
    AbortSignal.timeout(5000),
  );
  const back = new URL(await consentAt(url));
  expect(back.searchParams.get('state')).toBe(state);
  const code = back.searchParams.get('code') ?? '';
  return oauth.exchangeCode(
    { code, redirectUri: CALLBACK, codeVerifier: verifier },
    AbortSignal.timeout(5000),
  );
}

const AT = '2026-11-20T09:00:00.000Z';

export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    accountId: 'acc_bs',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    platform: 'bluesky',
    displayName: USER.displayName,
    handle: `@${USER.handle}`,
    status: 'connected',
    sandbox: false,
    connectedAt: AT,
    createdAt: AT,
    networkUserId: USER.did,
    ...overrides,
  };
}

let posts = 0;
export function aPost(content: string | ContentItem[], overrides: Partial<Post> = {}): Post {
  posts += 1;
  const at = new Date(Date.now() - 60_000).toISOString();
  return {
    postId: `pst_bs_${posts}_${randomBytes(4).toString('hex')}`,
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    accountId: 'acc_bs',
    platform: 'bluesky',
    postType: typeof content === 'string' ? 'text' : 'thread',
    status: 'publishing',
    content,
    media: [],
    createdAt: at,
    updatedAt: at,
    attempts: 0,
    createdBy: 'agt_1',
    version: 1,
    ...overrides,
  } as Post;
}

/** A stored file of `size` bytes, as the worker hands it to the connector. */
export function storedMedia(
  bytes: RecordingBytes,
  mimeType: string,
  size: number,
  alt?: string,
): { delivery: DeliveryMedia; ref: MediaRef } {
  const mediaId = `med_${randomBytes(6).toString('hex')}`;
  const objectKey = `t/ten_1/w/wks_1/m/${mediaId}`;
  bytes.put(objectKey, new Uint8Array(randomBytes(size)));
  const stored: Media = {
    mediaId,
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    filename: 'file',
    mimeType,
    sizeBytes: size,
    status: 'uploaded',
    objectKey,
    createdAt: new Date().toISOString(),
  };
  const kind = mimeType.startsWith('video/') ? 'video' : 'image';
  return {
    delivery: { kind, stored, ...(alt !== undefined && { alt }) },
    ref: { id: mediaId, ...(alt !== undefined && { alt }) },
  };
}

export function publishRequest(
  world: BlueskyWorld,
  post: Post,
  tokens: TokenSet,
  extra: Partial<Omit<PublishRequest, 'post'>> = {},
): PublishRequest {
  return {
    post,
    account: anAccount(),
    credentials: { accessToken: tokens.accessToken },
    attempt: 1,
    clientReference: post.postId,
    media: [],
    bytes: world.bytes,
    signal: AbortSignal.timeout(10_000),
    ...extra,
  };
}
