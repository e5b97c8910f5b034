import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import * as oauth from 'oauth4webapi';
import {
  DEFAULT_FAKE_X_USER,
  startXFake,
  type XFake,
  type XFakeOptions,
} from '../../../../infra/fake-networks/x/index.js';
import type { Media } from '../../../../shared/domain/media.js';
import type { ContentItem, MediaRef, Post } from '../../../../shared/domain/posts.js';
import type { Account } from '../../../../shared/domain/tenancy.js';
import { makeXConnector, type XConnectorOptions } from '../../../../shared/networks/x/connector.js';
import { makeXOAuth } from '../../../../shared/networks/x/oauth.js';
import type { DeliveryMedia, PublishRequest } from '../../../../shared/ports/connector.js';
import type { MediaBytes } from '../../../../shared/ports/media-bytes.js';
import type { TokenSet } from '../../../../shared/ports/network-oauth.js';

/** The fake X and the connector and OAuth provider pointed at it, over real HTTP on loopback. */
export interface XWorld {
  fake: XFake;
  oauth: ReturnType<typeof makeXOAuth>;
  connector: ReturnType<typeof makeXConnector>;
  redirectUri: string;
}

export const REDIRECT_URI = 'http://127.0.0.1:9/v1/oauth/twitter/callback';

export async function startXWorld(
  connectorOptions: Omit<XConnectorOptions, 'apiUrl'> = {},
  fakeOptions: XFakeOptions = {},
): Promise<XWorld> {
  const fake = await startXFake(fakeOptions);
  return {
    fake,
    oauth: makeXOAuth({
      apiUrl: fake.apiUrl,
      authorizeUrl: fake.authorizeUrl,
      appCredentials: async () => ({ clientId: fake.clientId, clientSecret: fake.clientSecret }),
    }),
    connector: makeXConnector({ apiUrl: fake.apiUrl, ...connectorOptions }),
    redirectUri: REDIRECT_URI,
  };
}

/** Follows the fake's consent page as a browser would: open it, press Approve (or Cancel). */
export async function consent(authorizeUrl: string, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  const ticket = /name="ticket" value="([^"]+)"/.exec(html)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!ticket || !action) throw new Error(`No consent form on the page (${page.status}).`);
  const answer = await fetch(new URL(action, authorizeUrl), {
    method: 'POST',
    body: new URLSearchParams({ ticket, decision }),
    redirect: 'manual',
  });
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location) throw new Error(`The consent answered ${answer.status}.`);
  return new URL(location);
}

/** A connected account's tokens, through the whole flow: authorize URL, consent, code exchange. */
export async function connect(world: XWorld): Promise<TokenSet> {
  const verifier = oauth.generateRandomCodeVerifier();
  const url = world.oauth.authorizationUrl({
    clientId: world.fake.clientId,
    state: 'state-1',
    redirectUri: world.redirectUri,
    codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
  });
  const back = await consent(url);
  const code = back.searchParams.get('code');
  if (!code) throw new Error('No code came back.');
  return world.oauth.exchangeCode(
    { code, redirectUri: world.redirectUri, codeVerifier: verifier },
    AbortSignal.timeout(5000),
  );
}

export function xAccount(overrides: Partial<Account> = {}): Account {
  return {
    accountId: 'acc_01X',
    tenantId: 'ten_01X',
    workspaceId: 'wks_01X',
    platform: 'twitter',
    displayName: DEFAULT_FAKE_X_USER.name,
    handle: `@${DEFAULT_FAKE_X_USER.username}`,
    status: 'connected',
    sandbox: false,
    connectedAt: '2026-01-01T00:00:00.000Z',
    createdAt: '2026-01-01T00:00:00.000Z',
    networkUserId: DEFAULT_FAKE_X_USER.id,
    ...overrides,
  };
}

let postCounter = 0;

export function xPost(content: string | ContentItem[], overrides: Partial<Post> = {}): Post {
  postCounter += 1;
  const now = new Date().toISOString();
  return {
    postId: `pst_${postCounter}`,
    tenantId: 'ten_01X',
    workspaceId: 'wks_01X',
    accountId: 'acc_01X',
    platform: 'twitter',
    postType: typeof content === 'string' ? 'text' : 'thread',
    status: 'publishing',
    content,
    media: [],
    createdAt: now,
    updatedAt: now,
    attempts: 1,
    createdBy: 'agt_01X',
    version: 1,
    ...overrides,
  };
}

/** Stored media in memory, recording every range read (a connector must read in chunks). */
export class MemoryMediaBytes implements MediaBytes {
  readonly objects = new Map<string, Uint8Array>();
  readonly reads: { key: string; start: number; end: number }[] = [];

  add(key: string, bytes: Uint8Array): void {
    this.objects.set(key, bytes);
  }

  async readRange(key: string, start: number, end: number): Promise<Uint8Array> {
    this.reads.push({ key, start, end });
    const object = this.objects.get(key);
    if (!object) throw new Error(`No object ${key}.`);
    return object.slice(start, Math.min(end, object.length));
  }

  async stream(): Promise<ReadableStream<Uint8Array>> {
    throw new Error('The X connector must read ranges, not whole files.');
  }
}

const PATTERN = new Uint8Array(randomBytes(1_048_573));

/**
 * Stored media whose bytes are made on read, one range at a time, from their offset: a file of
 * gigabytes costs no memory beyond the chunk being read. `sha256` hashes the same bytes the same way.
 */
export class GeneratedMediaBytes implements MediaBytes {
  readonly sizes = new Map<string, number>();
  readonly reads: { key: string; start: number; end: number }[] = [];

  add(key: string, size: number): void {
    this.sizes.set(key, size);
  }

  async readRange(key: string, start: number, end: number): Promise<Uint8Array> {
    this.reads.push({ key, start, end });
    const size = this.sizes.get(key);
    if (size === undefined) throw new Error(`No object ${key}.`);
    return GeneratedMediaBytes.bytesAt(start, Math.min(end, size));
  }

  async stream(): Promise<ReadableStream<Uint8Array>> {
    throw new Error('The X connector must read ranges, not whole files.');
  }

  /**
   * Byte i is PATTERN[i mod its length]: a prime length, so no chunk size lines up with it and a
   * chunk sent out of place changes the digest; copied, not computed, so gigabytes read quickly.
   */
  static bytesAt(start: number, end: number): Uint8Array {
    const bytes = new Uint8Array(end - start);
    let written = 0;
    while (written < bytes.length) {
      const from = (start + written) % PATTERN.length;
      const piece = PATTERN.subarray(from, from + Math.min(PATTERN.length - from, bytes.length - written));
      bytes.set(piece, written);
      written += piece.length;
    }
    return bytes;
  }

  static sha256(size: number): string {
    const hash = createHash('sha256');
    const step = 8 * 1024 * 1024;
    for (let start = 0; start < size; start += step) {
      hash.update(GeneratedMediaBytes.bytesAt(start, Math.min(size, start + step)));
    }
    return hash.digest('hex');
  }
}

/** A stored file of `size` generated bytes (GeneratedMediaBytes), as the worker hands it over. */
export function generatedMedia(
  bytes: GeneratedMediaBytes,
  mimeType: string,
  size: number,
): { delivery: DeliveryMedia; ref: MediaRef } {
  const mediaId = `med_${randomBytes(6).toString('hex')}`;
  const objectKey = `t/ten_01X/w/wks_01X/m/${mediaId}`;
  bytes.add(objectKey, size);
  const stored: Media = {
    mediaId,
    tenantId: 'ten_01X',
    workspaceId: 'wks_01X',
    filename: 'file',
    mimeType,
    sizeBytes: size,
    status: 'uploaded',
    objectKey,
    createdAt: new Date().toISOString(),
  };
  const kind = mimeType.startsWith('video/') ? 'video' : 'image';
  return { delivery: { kind, stored }, ref: { id: mediaId } };
}

/** A stored file of `size` random bytes, as the worker hands it to the connector. */
export function storedMedia(
  bytes: MemoryMediaBytes,
  mimeType: string,
  size: number,
  alt?: string,
): { delivery: DeliveryMedia; ref: MediaRef; sha256: string } {
  const mediaId = `med_${randomBytes(6).toString('hex')}`;
  const objectKey = `t/ten_01X/w/wks_01X/m/${mediaId}`;
  const data = randomBytes(size);
  bytes.add(objectKey, data);
  const stored: Media = {
    mediaId,
    tenantId: 'ten_01X',
    workspaceId: 'wks_01X',
    filename: 'file',
    mimeType,
    sizeBytes: size,
    status: 'uploaded',
    objectKey,
    createdAt: new Date().toISOString(),
  };
  const kind = mimeType.startsWith('video/') ? 'video' : 'image';
  return {
    delivery: { kind, stored, ...(alt && { alt }) },
    ref: { id: mediaId, ...(alt && { alt }) },
    sha256: createHash('sha256').update(data).digest('hex'),
  };
}

export function publishRequest(
  post: Post,
  tokens: TokenSet,
  extra: Partial<Omit<PublishRequest, 'post'>> = {},
): PublishRequest {
  return {
    post,
    account: xAccount(),
    credentials: { accessToken: tokens.accessToken },
    attempt: 1,
    clientReference: post.postId,
    media: [],
    signal: AbortSignal.timeout(10_000),
    ...extra,
  };
}

/** A loopback address where nothing listens: a request there is certainly not sent. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
