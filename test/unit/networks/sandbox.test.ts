import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Media } from '../../../shared/domain/media.js';
import { checkPlatformRules } from '../../../shared/domain/platform-rules/index.js';
import { PLATFORMS, type Platform } from '../../../shared/domain/platforms.js';
import type { ContentItem, MediaRef, Post, PostType } from '../../../shared/domain/posts.js';
import type { Account } from '../../../shared/domain/tenancy.js';
import {
  makeMemorySandboxLedger,
  makeSandboxConnector,
  parseSandboxDirectives,
  SANDBOX_DEFAULT_LATENCY_MS,
  SANDBOX_DEFAULT_SLOW_MS,
  SANDBOX_MAX_SLOW_MS,
  type SandboxConnectorOptions,
  type SandboxLedger,
} from '../../../shared/networks/sandbox/index.js';
import type {
  DeliveryMedia,
  LookupRequest,
  PublishOutcome,
  PublishRequest,
} from '../../../shared/ports/connector.js';

const CREATED_AT = Date.parse('2026-03-01T12:00:00.000Z');
const MINUTE = 60_000;

function anAccount(platform: Platform, handle = '@acme'): Account {
  return {
    accountId: `acc_${platform}`,
    tenantId: 'ten_1',
    workspaceId: 'ws_1',
    platform,
    displayName: 'Acme',
    handle,
    status: 'connected',
    sandbox: true,
    connectedAt: new Date(CREATED_AT).toISOString(),
    createdAt: new Date(CREATED_AT).toISOString(),
  };
}

function aPost(overrides: Partial<Post> = {}): Post {
  const at = new Date(CREATED_AT).toISOString();
  return {
    postId: 'pst_1',
    tenantId: 'ten_1',
    workspaceId: 'ws_1',
    accountId: 'acc_twitter',
    platform: 'twitter',
    postType: 'text',
    status: 'publishing',
    content: 'Hello',
    media: [],
    createdAt: at,
    updatedAt: at,
    attempts: 0,
    createdBy: 'agt_1',
    version: 1,
    ...overrides,
  };
}

const urlMedia = (kind: 'image' | 'video' | 'document', i = 0): MediaRef => ({
  url: `https://cdn.example.com/${kind}-${i}`,
  type: kind,
});

/** The media the worker hands over for a post: its references part by part, in order. */
function deliveredFor(post: Post): DeliveryMedia[] {
  const refs =
    typeof post.content === 'string' ? post.media : post.content.flatMap((item) => item.media ?? []);
  return refs.map((ref) => ({ kind: ref.type ?? 'image', ...(ref.url && { url: ref.url }) }));
}

function aRequest(post: Post, overrides: Partial<PublishRequest> = {}): PublishRequest {
  return {
    post,
    account: anAccount(post.platform),
    attempt: 1,
    clientReference: post.postId,
    media: deliveredFor(post),
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** A publishable post of each platform and type the sandbox distinguishes in its URLs. */
const VALID: Record<string, (text: string) => Post> = {
  twitter: (text) => aPost({ platform: 'twitter', postType: 'text', content: text }),
  linkedin: (text) => aPost({ platform: 'linkedin', postType: 'text', content: text }),
  instagram: (text) =>
    aPost({ platform: 'instagram', postType: 'image', content: text, media: [urlMedia('image')] }),
  tiktok: (text) =>
    aPost({ platform: 'tiktok', postType: 'video', content: text, media: [urlMedia('video')] }),
  tiktokPhoto: (text) =>
    aPost({
      platform: 'tiktok',
      postType: 'carousel',
      content: text,
      media: [urlMedia('image', 0), urlMedia('image', 1)],
    }),
  youtube: (text) =>
    aPost({
      platform: 'youtube',
      postType: 'video',
      content: `${text}\nAbout it`,
      media: [urlMedia('video')],
    }),
  youtubeShort: (text) =>
    aPost({ platform: 'youtube', postType: 'short', content: text, media: [urlMedia('video')] }),
  threads: (text) => aPost({ platform: 'threads', postType: 'text', content: text }),
  facebook: (text) => aPost({ platform: 'facebook', postType: 'text', content: text }),
  bluesky: (text) => aPost({ platform: 'bluesky', postType: 'text', content: text }),
};
const validPost = (platform: Platform, text = 'Hello') => (VALID[platform] as (text: string) => Post)(text);

const ID_SHAPES: Record<string, { id: RegExp; url: (id: string) => RegExp }> = {
  twitter: { id: /^[1-9]\d{18}$/, url: (id) => new RegExp(`^https://x\\.com/acme/status/${id}$`) },
  linkedin: {
    id: /^urn:li:share:\d{19}$/,
    url: (id) => new RegExp(`^https://www\\.linkedin\\.com/feed/update/${id}/$`),
  },
  instagram: { id: /^[1-9]\d{16}$/, url: () => /^https:\/\/www\.instagram\.com\/p\/[A-Za-z0-9_-]{11}\/$/ },
  tiktok: { id: /^[1-9]\d{18}$/, url: (id) => new RegExp(`^https://www\\.tiktok\\.com/@acme/video/${id}$`) },
  tiktokPhoto: {
    id: /^[1-9]\d{18}$/,
    url: (id) => new RegExp(`^https://www\\.tiktok\\.com/@acme/photo/${id}$`),
  },
  youtube: {
    id: /^[A-Za-z0-9_-]{11}$/,
    url: (id) => new RegExp(`^https://www\\.youtube\\.com/watch\\?v=${id.replace(/[-]/g, '\\-')}$`),
  },
  youtubeShort: {
    id: /^[A-Za-z0-9_-]{11}$/,
    url: (id) => new RegExp(`^https://www\\.youtube\\.com/shorts/${id.replace(/[-]/g, '\\-')}$`),
  },
  threads: { id: /^18\d{15}$/, url: () => /^https:\/\/www\.threads\.net\/@acme\/post\/[A-Za-z0-9_-]{11}$/ },
  bluesky: {
    id: /^at:\/\/did:plc:[0-9a-f]{24}\/app\.bsky\.feed\.post\/[234567a-j][234567a-z]{12}$/,
    url: (id) => new RegExp(`^https://bsky\\.app/profile/acme/post/${id.split('/').at(-1)}$`),
  },
  facebook: {
    id: /^10\d{13}_12\d{14}$/,
    url: (id) => new RegExp(`^https://www\\.facebook\\.com/${id.replace('_', '/posts/')}$`),
  },
};

/** A connector that never really waits: it notes each requested pause and lets time stand still. */
/** A look-up of the post made under `reference` for `account`. */
function aLookup(account: Account, reference: string, signal = new AbortController().signal): LookupRequest {
  return {
    account,
    post: aPost({ postId: reference, platform: account.platform }),
    clientReference: reference,
    signal,
  };
}

function setup(options: Partial<SandboxConnectorOptions> = {}) {
  const sleeps: number[] = [];
  const clock = { now: CREATED_AT };
  const ledger = options.ledger ?? makeMemorySandboxLedger();
  const connector = makeSandboxConnector({
    ledger,
    latencyMs: { min: 0, max: 0 },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    now: () => clock.now,
    ...options,
  });
  return { connector, ledger, sleeps, clock };
}

function expectFailed(outcome: PublishOutcome) {
  if (outcome.kind !== 'failed') throw new Error(`expected a failure, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function expectPublished(outcome: PublishOutcome) {
  if (outcome.kind !== 'published') throw new Error(`expected publication, got ${JSON.stringify(outcome)}`);
  return outcome;
}

const RAW_CODES: Record<
  Platform,
  { rateLimited: string; tokenRevoked: string; mediaTooLarge: string; invalid: string }
> = {
  twitter: { rateLimited: '429', tokenRevoked: '401', mediaTooLarge: '400', invalid: '400 invalid-request' },
  linkedin: { rateLimited: '429', tokenRevoked: '65601', mediaTooLarge: 'PROCESSING_FAILED', invalid: '422' },
  instagram: { rateLimited: '2207042', tokenRevoked: '190', mediaTooLarge: '2207004', invalid: '100' },
  tiktok: {
    rateLimited: 'rate_limit_exceeded',
    tokenRevoked: 'access_token_invalid',
    mediaTooLarge: 'invalid_file_upload',
    invalid: 'invalid_params',
  },
  youtube: {
    rateLimited: 'quotaExceeded',
    tokenRevoked: 'invalid_grant',
    mediaTooLarge: '400',
    invalid: 'invalidTitle',
  },
  threads: { rateLimited: '9', tokenRevoked: '190', mediaTooLarge: '100/2207004', invalid: '100' },
  facebook: { rateLimited: '32', tokenRevoked: '190/460', mediaTooLarge: '1366046', invalid: '100' },
  bluesky: {
    rateLimited: 'RateLimitExceeded',
    tokenRevoked: 'invalid_token',
    mediaTooLarge: 'BlobTooLarge',
    invalid: 'InvalidRequest',
  },
};

describe('parseSandboxDirectives', () => {
  it('finds nothing in ordinary text', () => {
    expect(parseSandboxDirectives(['Hello [world]', 'sandbox: rate_limited'])).toEqual({
      mediaTooLarge: false,
      tokenRevoked: false,
      rejected: false,
      ignored: [],
    });
  });

  it('reads every token with its argument, in any part', () => {
    expect(
      parseSandboxDirectives([
        'a [sandbox:rate_limited:5] b',
        '[sandbox:transient:3][sandbox:media_too_large]',
        'x [sandbox:token_revoked] [sandbox:rejected] [sandbox:slow:1500]',
      ]),
    ).toEqual({
      rateLimitedMinutes: 5,
      transientAttempts: 3,
      mediaTooLarge: true,
      tokenRevoked: true,
      rejected: true,
      slowMs: 1500,
      ignored: [],
    });
  });

  it('uses the defaults when the number is left out', () => {
    expect(
      parseSandboxDirectives(['[sandbox:rate_limited] [sandbox:transient] [sandbox:slow]']),
    ).toMatchObject({
      rateLimitedMinutes: 1,
      transientAttempts: 1,
      slowMs: SANDBOX_DEFAULT_SLOW_MS,
    });
  });

  it('accepts zero, caps slow at 60 s, and keeps the first of a repeated token', () => {
    expect(
      parseSandboxDirectives(['[sandbox:transient:0] [sandbox:slow:999999] [sandbox:transient:4]']),
    ).toMatchObject({ transientAttempts: 0, slowMs: SANDBOX_MAX_SLOW_MS });
    expect(parseSandboxDirectives(['[sandbox:rate_limited:2]', '[sandbox:rate_limited:9]'])).toMatchObject({
      rateLimitedMinutes: 2,
    });
  });

  it('ignores unknown names and malformed arguments, and lists them', () => {
    const directives = parseSandboxDirectives([
      '[sandbox:explode] [sandbox:transient:two] [sandbox:rate_limited:5m] [sandbox:rejected:yes]',
      '[sandbox:] [sandbox:slow:-5] [sandbox:RATE_LIMITED] [sandbox:constructor] [sandbox:transient:1.5]',
    ]);
    expect(directives).toEqual({
      mediaTooLarge: false,
      tokenRevoked: false,
      rejected: false,
      ignored: [
        '[sandbox:explode]',
        '[sandbox:transient:two]',
        '[sandbox:rate_limited:5m]',
        '[sandbox:rejected:yes]',
        '[sandbox:]',
        '[sandbox:slow:-5]',
        '[sandbox:RATE_LIMITED]',
        '[sandbox:constructor]',
        '[sandbox:transient:1.5]',
      ],
    });
  });

  it('does not read tokens with spaces inside', () => {
    expect(parseSandboxDirectives(['[sandbox: rejected] [ sandbox:rejected]']).rejected).toBe(false);
  });

  it('finds no directive in any text without "[sandbox:"', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 200 })), (texts) => {
        fc.pre(texts.every((text) => !text.includes('[sandbox:')));
        expect(parseSandboxDirectives(texts)).toEqual({
          mediaTooLarge: false,
          tokenRevoked: false,
          rejected: false,
          ignored: [],
        });
      }),
    );
  });
});

describe('sandbox connector: publication', () => {
  it.each(Object.keys(ID_SHAPES))('gives %s posts ids and URLs shaped like the network', async (key) => {
    const { connector } = setup();
    const post = (VALID[key] as (text: string) => Post)('Hello');
    const shape = ID_SHAPES[key] as { id: RegExp; url: (id: string) => RegExp };
    const outcome = expectPublished(await connector.publish(aRequest(post)));
    expect(outcome.platformPostId).toMatch(shape.id);
    expect(outcome.platformPostUrl).toMatch(shape.url(outcome.platformPostId));
  });

  it('gives the same id and URL for the same client reference, in any process', async () => {
    for (const platform of PLATFORMS) {
      const post = validPost(platform);
      const first = await setup().connector.publish(aRequest(post, { clientReference: 'ref-A' }));
      const again = await setup().connector.publish(aRequest(post, { clientReference: 'ref-A' }));
      const other = await setup().connector.publish(aRequest(post, { clientReference: 'ref-B' }));
      expect(again).toEqual(first);
      expect(expectPublished(other).platformPostId).not.toBe(expectPublished(first).platformPostId);
    }
  });

  it('uses the handle without its @ and falls back to x.com/i for X without one', async () => {
    const { connector } = setup();
    const post = validPost('twitter');
    const withHandle = await connector.publish(aRequest(post, { account: anAccount('twitter', 'Some_One') }));
    expect(expectPublished(withHandle).platformPostUrl).toMatch(
      /^https:\/\/x\.com\/Some_One\/status\/\d{19}$/,
    );
    const without = await setup().connector.publish(aRequest(post, { account: anAccount('twitter', '') }));
    expect(expectPublished(without).platformPostUrl).toMatch(/^https:\/\/x\.com\/i\/status\/\d{19}$/);
  });

  it('records the publication on the ledger, where findPublished reads it', async () => {
    const { connector, ledger, clock } = setup();
    const post = validPost('linkedin');
    const account = anAccount('linkedin');
    const signal = new AbortController().signal;
    expect(await connector.findPublished?.(aLookup(account, 'pst_1', signal))).toEqual({ kind: 'not_found' });
    clock.now = CREATED_AT + 5_000;
    const outcome = expectPublished(await connector.publish(aRequest(post)));
    expect(await ledger.find('pst_1')).toEqual({
      platformPostId: outcome.platformPostId,
      platformPostUrl: outcome.platformPostUrl,
      publishedAt: new Date(CREATED_AT + 5_000).toISOString(),
    });
    expect(await connector.findPublished?.(aLookup(account, 'pst_1', signal))).toEqual({
      kind: 'found',
      platformPostId: outcome.platformPostId,
      platformPostUrl: outcome.platformPostUrl,
    });
    expect(await connector.findPublished?.(aLookup(account, 'pst_other', signal))).toEqual({
      kind: 'not_found',
    });
  });

  it('answers a repeat with what it already has, without posting again', async () => {
    const calls: string[] = [];
    const memory = makeMemorySandboxLedger();
    const ledger: SandboxLedger = {
      async record(reference, result) {
        calls.push(`record ${reference}`);
        return memory.record(reference, result);
      },
      async find(reference) {
        calls.push(`find ${reference}`);
        return memory.find(reference);
      },
    };
    const { connector, clock } = setup({ ledger });
    const first = await connector.publish(aRequest(validPost('twitter')));
    clock.now += 10 * MINUTE;
    // Same reference, other content and even magic failure content: the network already has the post.
    const repeat = await connector.publish(
      aRequest(validPost('twitter', 'changed [sandbox:transient:5]'), { attempt: 1 }),
    );
    expect(repeat).toEqual(first);
    // The publication is one call; the repeat that would have failed looks the post up instead.
    expect(calls).toEqual(['record pst_1', 'find pst_1']);
    expect((await memory.find('pst_1'))?.publishedAt).toBe(new Date(CREATED_AT).toISOString());
  });

  it('answers a plain repeat with the publication the ledger holds, in one call', async () => {
    const calls: string[] = [];
    const memory = makeMemorySandboxLedger();
    const ledger: SandboxLedger = {
      async record(reference, result) {
        calls.push(`record ${reference} at ${result.publishedAt}`);
        return memory.record(reference, result);
      },
      async find(reference) {
        calls.push(`find ${reference}`);
        return memory.find(reference);
      },
    };
    const { connector, clock } = setup({ ledger });
    const first = expectPublished(await connector.publish(aRequest(validPost('linkedin'))));
    clock.now += 10 * MINUTE;
    const repeat = await connector.publish(aRequest(validPost('linkedin', 'edited'), { attempt: 1 }));
    expect(repeat).toEqual(first);
    const firstAt = new Date(CREATED_AT).toISOString();
    const repeatAt = new Date(CREATED_AT + 10 * MINUTE).toISOString();
    expect(calls).toEqual([`record pst_1 at ${firstAt}`, `record pst_1 at ${repeatAt}`]);
    // The first publication stays as it was.
    expect((await memory.find('pst_1'))?.publishedAt).toBe(firstAt);
  });

  it('shares what it published between connectors over one ledger', async () => {
    const ledger = makeMemorySandboxLedger();
    const { connector: one } = setup({ ledger });
    const { connector: two } = setup({ ledger });
    const published = expectPublished(await one.publish(aRequest(validPost('youtube'))));
    expect(await two.findPublished?.(aLookup(anAccount('youtube'), 'pst_1'))).toEqual({
      kind: 'found',
      platformPostId: published.platformPostId,
      platformPostUrl: published.platformPostUrl,
    });
  });

  it('publishes text with unknown or malformed tokens as usual', async () => {
    const { connector } = setup();
    const outcome = await connector.publish(
      aRequest(validPost('twitter', 'Hi [sandbox:explode] [sandbox:transient:x] [sandbox:Rejected]')),
    );
    expectPublished(outcome);
  });
});

describe('sandbox connector: magic content', () => {
  describe('[sandbox:rate_limited:N]', () => {
    it.each(PLATFORMS)('throttles %s until N minutes after creation, then publishes', async (platform) => {
      const { connector, ledger, clock } = setup();
      const request = aRequest(validPost(platform, 'Launch [sandbox:rate_limited:3]'));

      for (const offset of [0, MINUTE, 3 * MINUTE - 1]) {
        clock.now = CREATED_AT + offset;
        expect(await connector.publish(request)).toEqual({
          kind: 'failed',
          failure: 'rate_limited',
          code: 'RATE_LIMITED',
          message: expect.stringContaining('2026-03-01T12:03:00.000Z'),
          platformRawCode: RAW_CODES[platform].rateLimited,
          retryAfterSeconds: 60,
        });
      }
      expect(await ledger.find('pst_1')).toBeUndefined();

      clock.now = CREATED_AT + 3 * MINUTE;
      expectPublished(await connector.publish(request));
    });

    it('lasts one minute when N is left out, whatever the attempt', async () => {
      const { connector, clock } = setup();
      const request = aRequest(validPost('instagram', 'Hi [sandbox:rate_limited]'), { attempt: 7 });
      clock.now = CREATED_AT + MINUTE - 1;
      expect(expectFailed(await connector.publish(request)).failure).toBe('rate_limited');
      clock.now = CREATED_AT + MINUTE;
      expectPublished(await connector.publish(request));
    });

    it('counts from the creation time of the post, not from the first attempt', async () => {
      const { connector, clock } = setup();
      clock.now = CREATED_AT + 2 * MINUTE;
      const request = aRequest(validPost('tiktok', 'Hi [sandbox:rate_limited:2]'));
      expectPublished(await connector.publish(request));
    });

    it('counts a scheduled post from its scheduledAt, so it is throttled when it fires', async () => {
      const { connector, clock } = setup();
      const scheduledAt = CREATED_AT + 60 * MINUTE;
      const post = {
        ...validPost('twitter', 'Hi [sandbox:rate_limited:2]'),
        scheduledAt: new Date(scheduledAt).toISOString(),
      };
      clock.now = scheduledAt + MINUTE;
      expect(expectFailed(await connector.publish(aRequest(post))).failure).toBe('rate_limited');
      clock.now = scheduledAt + 2 * MINUTE;
      expectPublished(await connector.publish(aRequest(post)));
    });
  });

  describe('[sandbox:transient:K]', () => {
    it.each(PLATFORMS)('fails the first K attempts on %s with a 503, then publishes', async (platform) => {
      const { connector } = setup();
      const post = validPost(platform, 'Hi [sandbox:transient:2]');
      for (const attempt of [1, 2]) {
        expect(await connector.publish(aRequest(post, { attempt }))).toEqual({
          kind: 'failed',
          failure: 'transient',
          code: 'PLATFORM_UNAVAILABLE',
          message: expect.any(String),
          platformRawCode: '503',
        });
      }
      expectPublished(await connector.publish(aRequest(post, { attempt: 3 })));
    });

    it('fails only the first attempt when K is left out', async () => {
      const { connector } = setup();
      const post = validPost('linkedin', 'Hi [sandbox:transient]');
      expect(expectFailed(await connector.publish(aRequest(post, { attempt: 1 }))).failure).toBe('transient');
      expectPublished(await connector.publish(aRequest(post, { attempt: 2 })));
    });

    it('decides by the attempt number alone, so a fresh process behaves the same', async () => {
      const post = validPost('twitter', 'Hi [sandbox:transient:1]');
      expectPublished(await setup().connector.publish(aRequest(post, { attempt: 2 })));
      expectFailed(await setup().connector.publish(aRequest(post, { attempt: 1 })));
    });
  });

  it.each(PLATFORMS)(
    '[sandbox:media_too_large] fails %s permanently with MEDIA_TOO_LARGE',
    async (platform) => {
      const { connector, ledger } = setup();
      const outcome = await connector.publish(aRequest(validPost(platform, 'Hi [sandbox:media_too_large]')));
      expect(outcome).toEqual({
        kind: 'failed',
        failure: 'permanent',
        code: 'MEDIA_TOO_LARGE',
        message: expect.any(String),
        platformRawCode: RAW_CODES[platform].mediaTooLarge,
      });
      expect(await ledger.find('pst_1')).toBeUndefined();
    },
  );

  it.each(PLATFORMS)('[sandbox:token_revoked] answers %s with auth_revoked', async (platform) => {
    const { connector } = setup();
    const outcome = await connector.publish(
      aRequest(validPost(platform, 'Hi [sandbox:token_revoked]'), { attempt: 3 }),
    );
    expect(outcome).toEqual({
      kind: 'failed',
      failure: 'auth_revoked',
      code: 'TOKEN_REVOKED',
      message: expect.any(String),
      platformRawCode: RAW_CODES[platform].tokenRevoked,
    });
  });

  it.each([
    ['twitter', '403'],
    ['linkedin', 'DUPLICATE_POST'],
    ['instagram', '2207051'],
    ['tiktok', 'spam_risk_text'],
    ['youtube', 'duplicate'],
    ['facebook', '368/1346003'],
  ] as const)('[sandbox:rejected] fails %s permanently with PLATFORM_REJECTED', async (platform, raw) => {
    const { connector } = setup();
    const outcome = await connector.publish(aRequest(validPost(platform, 'Hi [sandbox:rejected]')));
    expect(outcome).toEqual({
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_REJECTED',
      message: expect.any(String),
      platformRawCode: raw,
    });
  });

  it('finds tokens in any part of a thread', async () => {
    const { connector } = setup();
    const post = aPost({
      postType: 'thread',
      content: [{ text: 'one' }, { text: 'two' }, { text: 'three [sandbox:token_revoked]' }],
    });
    expect(expectFailed(await connector.publish(aRequest(post))).failure).toBe('auth_revoked');
  });

  describe('[sandbox:slow:MS]', () => {
    it('waits MS after the latency, with the post already on the ledger', async () => {
      const ledger = makeMemorySandboxLedger();
      const seen: { ms: number; recorded: boolean }[] = [];
      const connector = makeSandboxConnector({
        ledger,
        latencyMs: { min: 20, max: 20 },
        now: () => CREATED_AT,
        sleep: async (ms) => {
          seen.push({ ms, recorded: (await ledger.find('pst_1')) !== undefined });
        },
      });
      expectPublished(await connector.publish(aRequest(validPost('tiktok', 'Hi [sandbox:slow:2500]'))));
      expect(seen).toEqual([
        { ms: 20, recorded: false },
        { ms: 2500, recorded: true },
      ]);
    });

    it('caps the wait at 60 s and also delays failures', async () => {
      const { connector, sleeps } = setup();
      const outcome = await connector.publish(
        aRequest(validPost('twitter', 'Hi [sandbox:slow:120000] [sandbox:transient]')),
      );
      expect(expectFailed(outcome).failure).toBe('transient');
      expect(sleeps).toEqual([60_000]);
    });
  });

  describe('the abort signal', () => {
    /** A connector whose pauses last until aborted, as a hanging request would; `paused` says when one starts. */
    const hanging = (ledger: SandboxLedger, latency: number) => {
      let paused: () => void = () => undefined;
      const pausedOnce = new Promise<void>((resolve) => {
        paused = resolve;
      });
      const connector = makeSandboxConnector({
        ledger,
        latencyMs: { min: latency, max: latency },
        now: () => CREATED_AT,
        sleep: (_ms, signal) =>
          new Promise<void>((_resolve, reject) => {
            signal.addEventListener('abort', () => reject(signal.reason), { once: true });
            paused();
          }),
      });
      return { connector, pausedOnce };
    };

    it('aborted while the request travels: rejects and publishes nothing', async () => {
      // Prepare
      const ledger = makeMemorySandboxLedger();
      const { connector, pausedOnce } = hanging(ledger, 20);
      const controller = new AbortController();
      const call = connector.publish(aRequest(validPost('twitter'), { signal: controller.signal }));
      await pausedOnce;

      // Act
      controller.abort(new Error('worker gave up'));

      // Assess
      await expect(call).rejects.toThrow('worker gave up');
      expect(await ledger.find('pst_1')).toBeUndefined();
    });

    it('aborted while a slow answer is on its way: rejects, and the post is on the network', async () => {
      // Prepare: no latency, so the call hangs in the slow answer, after publishing.
      const ledger = makeMemorySandboxLedger();
      const { connector, pausedOnce } = hanging(ledger, 0);
      const controller = new AbortController();
      const call = connector.publish(
        aRequest(validPost('twitter', 'Late [sandbox:slow:5000]'), { signal: controller.signal }),
      );
      await pausedOnce;

      // Act
      controller.abort(new Error('time-out'));

      // Assess
      await expect(call).rejects.toThrow('time-out');
      expect(await ledger.find('pst_1')).toBeDefined();
      expect((await connector.findPublished?.(aLookup(anAccount('twitter'), 'pst_1')))?.kind).toBe('found');
    });

    it('refuses a request whose signal is already aborted, before publishing', async () => {
      const ledger = makeMemorySandboxLedger();
      const { connector } = setup({ ledger });
      await expect(
        connector.publish(aRequest(validPost('twitter'), { signal: AbortSignal.abort(new Error('late')) })),
      ).rejects.toThrow('late');
      expect(await ledger.find('pst_1')).toBeUndefined();
    });

    it('the default pause ends early when aborted', async () => {
      // Prepare: the real timer, with a minute-long slow answer.
      const connector = makeSandboxConnector({
        ledger: makeMemorySandboxLedger(),
        latencyMs: { min: 0, max: 0 },
        now: () => CREATED_AT,
      });
      const controller = new AbortController();
      const call = connector.publish(
        aRequest(validPost('twitter', 'Late [sandbox:slow:60000]'), { signal: controller.signal }),
      );

      // Act
      setTimeout(() => controller.abort(new Error('gave up')), 5);

      // Assess: rejected long before the minute is up (the test's own time-out is seconds).
      await expect(call).rejects.toThrow('gave up');
    });
  });

  it('answers in the order a network would: auth, throttling, availability, media, rules, policy', async () => {
    const { connector } = setup();
    const publish = (text: string, attempt = 1) =>
      connector.publish(aRequest(validPost('twitter', text), { attempt })).then(expectFailed);
    const all = '[sandbox:rejected] [sandbox:media_too_large] [sandbox:transient] [sandbox:rate_limited]';
    expect((await publish(`${all} [sandbox:token_revoked]`)).code).toBe('TOKEN_REVOKED');
    expect((await publish(all)).code).toBe('RATE_LIMITED');
    expect((await publish('[sandbox:rejected] [sandbox:media_too_large] [sandbox:transient]')).code).toBe(
      'PLATFORM_UNAVAILABLE',
    );
    expect((await publish('[sandbox:rejected] [sandbox:media_too_large] [sandbox:transient]', 2)).code).toBe(
      'MEDIA_TOO_LARGE',
    );
    const tooLong = `${'a'.repeat(281)} [sandbox:rejected]`;
    expect(await publish(tooLong)).toMatchObject({
      code: 'PLATFORM_REJECTED',
      platformRawCode: '400 invalid-request',
    });
    expect(await publish('[sandbox:rejected]')).toMatchObject({
      code: 'PLATFORM_REJECTED',
      platformRawCode: '403',
    });
  });
});

describe('sandbox connector: network rules', () => {
  it.each(PLATFORMS)(
    'refuses a %s post that breaks the rules, with the first violation',
    async (platform) => {
      const { connector, ledger } = setup();
      const broken: Record<Platform, Post> = {
        twitter: aPost({ content: 'x'.repeat(281) }),
        linkedin: aPost({ platform: 'linkedin', postType: 'text', content: '   ' }),
        instagram: aPost({ platform: 'instagram', postType: 'image', content: 'No picture' }),
        tiktok: aPost({ platform: 'tiktok', postType: 'text', content: 'Not a TikTok type' }),
        youtube: aPost({
          platform: 'youtube',
          postType: 'video',
          content: 'A <b> title',
          media: [urlMedia('video')],
        }),
        threads: aPost({ platform: 'threads', postType: 'text', content: '   ' }),
        facebook: aPost({ platform: 'facebook', postType: 'text', content: '   ' }),
        bluesky: aPost({ platform: 'bluesky', postType: 'text', content: 'x'.repeat(301) }),
      };
      const post = broken[platform];
      const request = aRequest(post);
      const [first] = checkPlatformRules(post, (ref) => ref.type);
      expect(await connector.publish(request)).toEqual({
        kind: 'failed',
        failure: 'permanent',
        code: 'PLATFORM_REJECTED',
        message: first?.message,
        platformRawCode: RAW_CODES[platform].invalid,
      });
      expect(await ledger.find('pst_1')).toBeUndefined();
    },
  );

  it('names YouTube description problems invalidDescription', async () => {
    const { connector } = setup();
    const post = aPost({
      platform: 'youtube',
      postType: 'video',
      content: 'Title\n<script>',
      media: [urlMedia('video')],
    });
    expect(expectFailed(await connector.publish(aRequest(post))).platformRawCode).toBe('invalidDescription');
  });

  it('takes the kind of pre-uploaded media from the delivered media, by position', async () => {
    const { connector } = setup();
    const post = aPost({
      platform: 'instagram',
      postType: 'carousel',
      content: [{ text: 'Caption', media: [{ id: 'med_1' }] }, { media: [{ id: 'med_2' }] }],
    });
    const ok = await connector.publish(aRequest(post, { media: [{ kind: 'image' }, { kind: 'video' }] }));
    expectPublished(ok);

    const doc = await setup().connector.publish(
      aRequest(post, { media: [{ kind: 'image' }, { kind: 'document' }] }),
    );
    expect(expectFailed(doc)).toMatchObject({
      failure: 'permanent',
      code: 'PLATFORM_REJECTED',
      message: expect.stringContaining('Documents can only be posted to LinkedIn'),
    });
  });

  it('refuses stored media bigger than the network takes', async () => {
    const stored = (mimeType: string, sizeBytes: number): Media => ({
      mediaId: 'med_1',
      tenantId: 'ten_1',
      workspaceId: 'ws_1',
      filename: 'f',
      mimeType,
      sizeBytes,
      status: 'uploaded',
      createdAt: new Date(CREATED_AT).toISOString(),
    });
    const post = aPost({ postType: 'image', content: 'Look', media: [{ id: 'med_1' }] });
    const send = (media: DeliveryMedia) => setup().connector.publish(aRequest(post, { media: [media] }));

    expect(await send({ kind: 'image', stored: stored('image/jpeg', 6 * 1024 * 1024) })).toEqual({
      kind: 'failed',
      failure: 'permanent',
      code: 'MEDIA_TOO_LARGE',
      message: expect.stringContaining('5 MB'),
      platformRawCode: '400',
    });
    expectPublished(await send({ kind: 'image', stored: stored('image/jpeg', 5 * 1024 * 1024) }));
    // X takes animated GIFs up to 15 MB.
    expectPublished(await send({ kind: 'image', stored: stored('image/gif', 10 * 1024 * 1024) }));
  });

  it("takes an X video past the media overview's 512 MB, as X's upload does (8 GB on a Post)", async () => {
    const video: DeliveryMedia = {
      kind: 'video',
      stored: {
        mediaId: 'med_1',
        tenantId: 'ten_1',
        workspaceId: 'ws_1',
        filename: 'f',
        mimeType: 'video/mp4',
        sizeBytes: 600 * 1024 * 1024,
        status: 'uploaded',
        createdAt: new Date(CREATED_AT).toISOString(),
      },
    };
    const post = aPost({ postType: 'video', content: 'Long', media: [{ id: 'med_1' }] });

    expectPublished(await setup().connector.publish(aRequest(post, { media: [video] })));
  });
});

describe('sandbox connector: latency', () => {
  it('sleeps once per call, within the configured range', async () => {
    const { connector, sleeps } = setup({ latencyMs: { min: 5, max: 9 } });
    for (let i = 0; i < 30; i++)
      await connector.publish(aRequest(validPost('twitter'), { clientReference: `r${i}` }));
    expect(sleeps).toHaveLength(30);
    for (const ms of sleeps) {
      expect(Number.isInteger(ms)).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(5);
      expect(ms).toBeLessThanOrEqual(9);
    }
  });

  it('reaches both ends of the range', async () => {
    for (const [random, expected] of [
      [0, 5],
      [0.999999, 9],
    ] as const) {
      const { connector, sleeps } = setup({ latencyMs: { min: 5, max: 9 }, random: () => random });
      await connector.publish(aRequest(validPost('twitter')));
      expect(sleeps).toEqual([expected]);
    }
  });

  it.each(PLATFORMS)('defaults to a realistic range for %s', async (platform) => {
    const { connector, sleeps } = setup({ latencyMs: undefined });
    await connector.publish(aRequest(validPost(platform)));
    const { min, max } = SANDBOX_DEFAULT_LATENCY_MS[platform];
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(min);
    expect(sleeps[0]).toBeLessThanOrEqual(max);
  });

  it('does not sleep for a zero latency', async () => {
    const { connector, sleeps } = setup({ latencyMs: { min: 0, max: 0 } });
    await connector.publish(aRequest(validPost('twitter')));
    expect(sleeps).toEqual([]);
  });

  it('refuses a range that makes no sense', () => {
    const ledger = makeMemorySandboxLedger();
    expect(() => makeSandboxConnector({ ledger, latencyMs: { min: 10, max: 5 } })).toThrow(RangeError);
    expect(() => makeSandboxConnector({ ledger, latencyMs: { min: -1, max: 5 } })).toThrow(RangeError);
  });

  it('really waits with the default sleep', async () => {
    const connector = makeSandboxConnector({
      ledger: makeMemorySandboxLedger(),
      latencyMs: { min: 30, max: 30 },
    });
    const started = performance.now();
    await connector.publish(aRequest(validPost('twitter')));
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});

describe('sandbox connector: properties', () => {
  const SHAPED = Object.keys(VALID);
  const noMagic = fc
    .string({ unit: 'grapheme', maxLength: 120 })
    .filter((text) => !text.includes('[sandbox:'));

  it('publishes any valid post without "[sandbox:" and refuses any invalid one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SHAPED), noMagic, async (key, text) => {
        const post = (VALID[key] as (text: string) => Post)(text);
        const valid = checkPlatformRules(post, (ref) => ref.type).length === 0;
        const outcome = await setup().connector.publish(aRequest(post));
        expect(outcome.kind === 'published').toBe(valid);
        if (!valid) expect(expectFailed(outcome).code).toBe('PLATFORM_REJECTED');
      }),
    );
  });

  it('gives a valid post the same id for the same reference, shaped like the network', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SHAPED),
        noMagic.map((text) => `Hi ${text.replace(/[<>]/g, '')}`),
        fc.string({ minLength: 1, maxLength: 40 }),
        async (key, text, clientReference) => {
          const post = (VALID[key] as (text: string) => Post)(text);
          fc.pre(checkPlatformRules(post, (ref) => ref.type).length === 0);
          const first = expectPublished(await setup().connector.publish(aRequest(post, { clientReference })));
          // Another process, other content: same reference, same id.
          const other = (VALID[key] as (text: string) => Post)('Something else');
          const again = await setup().connector.publish(aRequest(other, { clientReference, attempt: 4 }));
          expect(again).toEqual(first);
          const shape = ID_SHAPES[key] as { id: RegExp };
          expect(first.platformPostId).toMatch(shape.id);
        },
      ),
    );
  });

  it('publishes each thread of items without tokens', async () => {
    const item: fc.Arbitrary<ContentItem> = fc.record({
      text: fc.stringMatching(/^[a-z ]{1,40}$/).filter((text) => text.trim() !== ''),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 2, maxLength: 6 }), async (content) => {
        const post = aPost({ postType: 'thread' as PostType, content });
        expectPublished(await setup().connector.publish(aRequest(post)));
      }),
    );
  });
});
