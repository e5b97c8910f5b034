import {
  FAKE_LINKEDIN_DEFAULT_MEMBER,
  FAKE_LINKEDIN_DEFAULT_PAGE,
  type LinkedInFake,
  type LinkedInFakeOptions,
  startLinkedInFake,
} from '../../../../infra/fake-networks/linkedin/index.js';
import type { Media } from '../../../../shared/domain/media.js';
import type { MediaRef, Post } from '../../../../shared/domain/posts.js';
import type { Account } from '../../../../shared/domain/tenancy.js';
import { makeLinkedInNetwork } from '../../../../shared/networks/linkedin/index.js';
import type { Network } from '../../../../shared/networks/network.js';
import type {
  CommentRequest,
  DeliveryMedia,
  LinkPreviewPage,
  LinkPreviewReader,
  PublishRequest,
} from '../../../../shared/ports/connector.js';
import type { OAuthProvider } from '../../../../shared/ports/network-oauth.js';
import { NETWORK_ENDPOINT_DEFAULTS } from '../../../../shared/runtime/network-config.js';
import { patternBytes, RecordingBytes } from '../support/recording-bytes.js';

/** Helpers for the LinkedIn connector's tests against its fake, over real HTTP on loopback. */

export const MEMBER = FAKE_LINKEDIN_DEFAULT_MEMBER;
export const PAGE = FAKE_LINKEDIN_DEFAULT_PAGE;
export const CALLBACK = 'http://127.0.0.1:9/v1/oauth/linkedin/callback';

export interface LinkedInWorld {
  fake: LinkedInFake;
  network: Network;
  bytes: RecordingBytes;
  stop(): Promise<void>;
}

/**
 * The fake (by default with its two apps, a member app and a Community Management app) and the
 * network configured with the fake's apps: LINKEDIN_* with the member app, LINKEDIN_COMMUNITY_*
 * with the Community Management app, each only where the fake has one.
 */
export async function startWorld(options: LinkedInFakeOptions = {}): Promise<LinkedInWorld> {
  const fake = await startLinkedInFake(options);
  const member = fake.appWith('SHARE_ON_LINKEDIN');
  const community = fake.appWith('COMMUNITY_MANAGEMENT_API');
  const client = (app: typeof member) => app && { clientId: app.clientId, clientSecret: app.clientSecret };
  const network = makeLinkedInNetwork({
    endpoints: {
      ...NETWORK_ENDPOINT_DEFAULTS,
      LINKEDIN_API_URL: fake.apiUrl,
      LINKEDIN_OAUTH_URL: fake.oauthUrl,
    },
    appCredentials: async () => client(member),
    credentialsOf: async (app) => (app === 'LINKEDIN_COMMUNITY' ? client(community) : client(member)),
  });
  return { fake, network, bytes: new RecordingBytes(), stop: () => fake.stop() };
}

/** The OAuth of the network's Community Management app. */
export function communityOAuth(world: LinkedInWorld): OAuthProvider {
  const oauth = world.network.otherApps?.find((other) => other.app === 'LINKEDIN_COMMUNITY')?.oauth;
  if (!oauth) throw new Error('The LinkedIn network has no Community Management app.');
  return oauth;
}

const CREATED_AT = '2026-05-10T09:00:00.000Z';

export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    accountId: 'acc_li',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    platform: 'linkedin',
    displayName: MEMBER.name,
    handle: MEMBER.name,
    status: 'connected',
    sandbox: false,
    connectedAt: CREATED_AT,
    createdAt: CREATED_AT,
    networkUserId: MEMBER.sub,
    ...overrides,
  };
}

export function aPost(overrides: Partial<Post> = {}): Post {
  const at = new Date().toISOString();
  return {
    postId: 'pst_li_1',
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    accountId: 'acc_li',
    platform: 'linkedin',
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

/** A stored media item, its bytes put in the bucket: what the worker hands the connector. */
export function storedMedia(
  bytes: RecordingBytes,
  kind: DeliveryMedia['kind'],
  content: Uint8Array,
  options: { id?: string; filename?: string; alt?: string; sizeBytes?: number } = {},
): { delivered: DeliveryMedia; ref: MediaRef } {
  const mediaId = options.id ?? `med_${kind}_${bytes.objects.size + 1}`;
  const objectKey = `t/ten_1/w/wks_1/m/${mediaId}`;
  bytes.put(objectKey, content);
  const mimeType = { image: 'image/png', video: 'video/mp4', document: 'application/pdf' }[kind];
  const stored: Media = {
    mediaId,
    tenantId: 'ten_1',
    workspaceId: 'wks_1',
    filename: options.filename ?? `${mediaId}.${mimeType.split('/')[1]}`,
    mimeType,
    sizeBytes: options.sizeBytes ?? content.length,
    status: 'uploaded',
    objectKey,
    source: 'upload',
    createdAt: CREATED_AT,
  };
  return {
    delivered: { kind, stored, ...(options.alt && { alt: options.alt }) },
    ref: { id: mediaId, ...(options.alt && { alt: options.alt }) },
  };
}

export function aRequest(
  world: LinkedInWorld,
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

/** A token for the default member as a connect through the member app gets it (its scopes). */
export function memberToken(
  world: LinkedInWorld,
  scopes: readonly string[] = world.network.oauth.scopes,
): string {
  return world.fake.control.issueToken(
    MEMBER.sub,
    [...scopes],
    world.fake.appWith('SHARE_ON_LINKEDIN')?.clientId,
  );
}

/** A token for the default member as a connect through the Community Management app gets it. */
export function communityToken(world: LinkedInWorld): string {
  const app = world.fake.appWith('COMMUNITY_MANAGEMENT_API');
  return world.fake.control.issueToken(MEMBER.sub, [...communityOAuth(world).scopes], app?.clientId);
}

/** A request to post for the default member's Community Management account (a Page post's). */
export function pageRequest(
  world: LinkedInWorld,
  accessToken: string,
  overrides: Partial<PublishRequest> = {},
): PublishRequest {
  return aRequest(world, accessToken, { account: aCommunityAccount(), ...overrides });
}

/** The default member's account connected through the Community Management app. */
export function aCommunityAccount(overrides: Partial<Account> = {}): Account {
  return anAccount({ networkApp: 'LINKEDIN_COMMUNITY', ...overrides });
}

export { patternBytes, RecordingBytes };

/** A first comment to make on a post the fake published (`platformPostId`). */
export function aCommentRequest(
  world: LinkedInWorld,
  accessToken: string,
  post: Post & { platformPostId: string },
  overrides: Partial<CommentRequest> = {},
): CommentRequest {
  return {
    post,
    account: anAccount(),
    credentials: { accessToken },
    comment: { text: 'First! Details (and slides) at #launch', media: [] },
    bytes: world.bytes,
    attempt: 1,
    clientReference: `${post.postId}:comment`,
    signal: AbortSignal.timeout(10_000),
    ...overrides,
  };
}

/**
 * A link-card reader as the worker hands connectors (adapters/http/link-preview.ts), answering
 * from what the test gives, and recording what it was asked.
 */
export class StubLinkPreview implements LinkPreviewReader {
  readonly pagesRead: string[] = [];
  readonly imagesRead: { url: string; maxBytes: number }[] = [];
  constructor(
    private readonly page: LinkPreviewPage | undefined,
    private readonly image?: { bytes: Uint8Array; contentType: string },
  ) {}
  async readPage(url: string): Promise<LinkPreviewPage | undefined> {
    this.pagesRead.push(url);
    return this.page;
  }
  async readImage(url: string, maxBytes: number) {
    this.imagesRead.push({ url, maxBytes });
    return this.image;
  }
}
