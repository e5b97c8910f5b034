import { checkPlatformRules } from '../../domain/platform-rules/index.js';
import type { Platform } from '../../domain/platforms.js';
import { contentItems, type MediaKind, type MediaRef, type Post } from '../../domain/posts.js';
import type {
  CommentOutcome,
  CommentRequest,
  Connector,
  DeliveryMedia,
  PublishFailureKind,
  PublishOutcome,
  PublishRequest,
} from '../../ports/connector.js';
import { SANDBOX_SIMULATIONS } from '../registry.js';
import { parseSandboxDirectives, type SandboxDirectives } from './directives.js';
import { sandboxPostIdentity } from './identifiers.js';
import type { SandboxLedger, SandboxPublication } from './ledger.js';
import { makeSandboxMetricsReaders } from './metrics.js';
import {
  type LatencyRange,
  NETWORK_PROFILES,
  type NetworkProfile,
  SANDBOX_DEFAULT_LATENCY_MS,
  SANDBOX_GIF_SIZE_LIMITS,
  SANDBOX_MEDIA_SIZE_LIMITS,
} from './profiles.js';

/** `retryAfterSeconds` of a sandbox rate limit (TikTok's per-minute window; a sensible pause elsewhere). */
export const SANDBOX_RETRY_AFTER_SECONDS = 60;

export interface SandboxConnectorOptions {
  /** What the simulated network has published (shared by every process that should agree). */
  ledger: SandboxLedger;
  /** One latency range for every platform, in ms; default: SANDBOX_DEFAULT_LATENCY_MS per platform. */
  latencyMs?: LatencyRange;
  /**
   * How the connector waits (latency, `[sandbox:slow:MS]`); tests pass one that does not. It must
   * reject once `signal` is aborted, as a real request does.
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Epoch milliseconds; drives `[sandbox:rate_limited:N]`. */
  now?: () => number;
  /** A number in [0, 1) that picks the latency within its range; default Math.random. */
  random?: () => number;
}

/** setTimeout that gives up (rejecting with the signal's reason) when the signal is aborted. */
const realSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    signal.throwIfAborted();
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });

/**
 * The sandbox network: the connector behind every sandbox account. It answers like the real network
 * would (ids, URLs and error codes shaped per network), enforces the network's rules, and turns magic
 * content (docs/sandbox.md) into each failure mode. Every decision comes from the request, the post,
 * the clock and the ledger, so it behaves the same across processes and restarts.
 *
 * It honours the request's abort signal as a real network call does: aborted before the post is
 * recorded, nothing is published; aborted after (`[sandbox:slow:MS]` answers late), the post is on
 * the network and only the answer is lost. Either way the call rejects with the signal's reason.
 *
 * Precedence, in the order a real network would answer: the ledger (a post it already has comes back
 * as it was, without posting again), then `token_revoked` (auth), `rate_limited` (throttling),
 * `transient` (availability), media size (`media_too_large`, and real size limits of stored media),
 * the network's rules, `rejected` (duplicate or policy), and finally publication.
 */
export function makeSandboxConnector(options: SandboxConnectorOptions): Connector {
  const { ledger, latencyMs } = options;
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  if (latencyMs) assertRange(latencyMs);

  const latencyFor = (platform: Platform): number => {
    const { min, max } = latencyMs ?? SANDBOX_DEFAULT_LATENCY_MS[platform];
    return Math.min(max, min + Math.floor(random() * (max - min + 1)));
  };

  const answer = async (request: PublishRequest, directives: SandboxDirectives): Promise<PublishOutcome> => {
    const { post, clientReference } = request;
    const profile = NETWORK_PROFILES[post.platform];

    const failure = failureFor(request, directives, profile, now());
    if (failure) {
      // A post the network already has comes back as it was, whatever the repeat would have met.
      const known = await ledger.find(clientReference);
      request.signal.throwIfAborted();
      return known ? publishedAs(known) : failure;
    }

    const identity = sandboxPostIdentity({
      platform: post.platform,
      clientReference,
      handle: request.account.handle,
      postType: post.postType,
    });
    request.signal.throwIfAborted();
    const handedOver = SANDBOX_SIMULATIONS[post.platform].awaitsCreator?.(
      post.platformOptions?.[post.platform],
    );
    // One call whether it is new or a repeat: the ledger answers the publication it holds.
    const recorded = await ledger.record(clientReference, {
      ...(handedOver
        ? { platformPostId: `${INBOX_PREFIX}${identity.platformPostId}`, platformPostUrl: '' }
        : identity),
      publishedAt: new Date(now()).toISOString(),
    });
    return publishedAs(recorded);
  };

  const metricsReaders = makeSandboxMetricsReaders(now);
  const lookUp = (request: { clientReference: string; signal: AbortSignal }) => findOn(ledger, request);

  return {
    ...metricsReaders,
    async publish(request) {
      const directives = parseSandboxDirectives(postTexts(request.post));
      const latency = latencyFor(request.post.platform);
      if (latency > 0) await sleep(latency, request.signal);
      const outcome = await answer(request, directives);
      // The network has done its work (a post is already on the ledger) and answers late: a worker
      // that times out or is killed meanwhile finds the post with findPublished.
      if (directives.slowMs !== undefined && directives.slowMs > 0) {
        await sleep(directives.slowMs, request.signal);
      }
      return outcome;
    },
    findPublished: lookUp,
    /**
     * A first comment (docs/sandbox.md "First comments"): magic content in the comment's own text
     * chooses its failure modes, as a post's does; a comment on the ledger (under its own reference)
     * comes back as it was, so a repeat never comments twice.
     */
    async publishComment(request) {
      const directives = parseSandboxDirectives([request.comment.text]);
      const latency = latencyFor(request.post.platform);
      if (latency > 0) await sleep(latency, request.signal);
      const failure = commentFailure(request, directives, NETWORK_PROFILES[request.post.platform], now());
      const known = await ledger.find(request.clientReference);
      request.signal.throwIfAborted();
      if (known) return publishedAs(known);
      if (failure) return failure;
      const identity = sandboxPostIdentity({
        platform: request.post.platform,
        clientReference: request.clientReference,
        handle: request.account.handle,
        postType: 'text',
      });
      const recorded = await ledger.record(request.clientReference, {
        ...identity,
        publishedAt: new Date(now()).toISOString(),
      });
      if (directives.slowMs !== undefined && directives.slowMs > 0)
        await sleep(directives.slowMs, request.signal);
      return publishedAs(recorded);
    },
    async findComment(request) {
      // A comment is never handed over: only a post's reference can be marked so.
      const found = await lookUp(request);
      return found.kind === 'found_awaiting_creator' ? { kind: 'unknown', message: 'Not a comment.' } : found;
    },
  };
}

/** What the ledger holds under a reference: a post's or a comment's. */
async function findOn(
  ledger: SandboxLedger,
  { clientReference, signal }: { clientReference: string; signal: AbortSignal },
): Promise<
  | { kind: 'found'; platformPostId: string; platformPostUrl: string }
  | { kind: 'found_awaiting_creator' }
  | { kind: 'not_found' }
> {
  const known = await ledger.find(clientReference);
  signal.throwIfAborted();
  if (!known) return { kind: 'not_found' };
  if (known.platformPostId.startsWith(INBOX_PREFIX)) return { kind: 'found_awaiting_creator' };
  return { kind: 'found', platformPostId: known.platformPostId, platformPostUrl: known.platformPostUrl };
}

/** A comment's failure modes, from its own text: a revoked token, a rate limit, a 503, a refusal. */
function commentFailure(
  request: CommentRequest,
  directives: SandboxDirectives,
  profile: NetworkProfile,
  nowMs: number,
): CommentOutcome | undefined {
  const { name, rawCodes } = profile;
  if (directives.tokenRevoked) {
    return {
      kind: 'failed',
      failure: 'auth_revoked',
      code: 'TOKEN_REVOKED',
      message: `${name} says the access token was revoked by the user (sandbox: [sandbox:token_revoked]).`,
      platformRawCode: rawCodes.tokenRevoked,
    };
  }
  if (directives.rateLimitedMinutes !== undefined) {
    const since = Date.parse(request.post.publishedAt ?? request.post.createdAt);
    if (nowMs < since + directives.rateLimitedMinutes * 60_000) {
      return {
        kind: 'failed',
        failure: 'rate_limited',
        code: 'RATE_LIMITED',
        message: `${name} rate limit reached for comments (sandbox: [sandbox:rate_limited]).`,
        platformRawCode: rawCodes.rateLimited,
        retryAfterSeconds: SANDBOX_RETRY_AFTER_SECONDS,
      };
    }
  }
  if (directives.transientAttempts !== undefined && request.attempt <= directives.transientAttempts) {
    return {
      kind: 'failed',
      failure: 'transient',
      code: 'PLATFORM_UNAVAILABLE',
      message: `${name} is temporarily unavailable (sandbox: comment attempt ${request.attempt} of the first ${directives.transientAttempts} fails).`,
      platformRawCode: rawCodes.unavailable,
    };
  }
  if (directives.rejected) {
    return {
      kind: 'failed',
      failure: 'permanent',
      code: 'PLATFORM_REJECTED',
      message: `${name} refused the comment (sandbox: [sandbox:rejected]).`,
      platformRawCode: rawCodes.rejected,
    };
  }
  return undefined;
}

/**
 * A post the sandbox handed to the creator's inbox (a draft, not published) is kept on the ledger
 * under its reference too, its id marked, so a repeat or a look-up answers the same.
 */
const INBOX_PREFIX = 'inbox:';

function publishedAs(
  known: SandboxPublication,
): Extract<PublishOutcome, { kind: 'published' } | { kind: 'awaiting_creator' }> {
  if (known.platformPostId.startsWith(INBOX_PREFIX)) return { kind: 'awaiting_creator' };
  return { kind: 'published', platformPostId: known.platformPostId, platformPostUrl: known.platformPostUrl };
}

/** Every text of the post (all items of a thread or carousel): where magic tokens are looked for. */
export function postTexts(post: Pick<Post, 'content' | 'media'>): string[] {
  return contentItems(post).map((item) => item.text ?? '');
}

function failureFor(
  request: PublishRequest,
  directives: SandboxDirectives,
  profile: NetworkProfile,
  nowMs: number,
): PublishOutcome | undefined {
  const { post, attempt } = request;
  const { name, rawCodes } = profile;
  const fail = (
    failure: PublishFailureKind,
    code: string,
    message: string,
    platformRawCode: string,
  ): PublishOutcome => ({ kind: 'failed', failure, code, message, platformRawCode });

  if (directives.tokenRevoked) {
    return fail(
      'auth_revoked',
      'TOKEN_REVOKED',
      `${name} says the access token was revoked by the user (sandbox: [sandbox:token_revoked]).`,
      rawCodes.tokenRevoked,
    );
  }

  if (directives.rateLimitedMinutes !== undefined) {
    // From when the post was due (its scheduledAt, else its creation), so scheduled posts are throttled too.
    const until = Date.parse(post.scheduledAt ?? post.createdAt) + directives.rateLimitedMinutes * 60_000;
    if (nowMs < until) {
      return {
        kind: 'failed',
        failure: 'rate_limited',
        code: 'RATE_LIMITED',
        message: `${name} rate limit reached (sandbox: throttled until ${new Date(until).toISOString()}).`,
        platformRawCode: rawCodes.rateLimited,
        retryAfterSeconds: SANDBOX_RETRY_AFTER_SECONDS,
      };
    }
  }

  if (directives.transientAttempts !== undefined && attempt <= directives.transientAttempts) {
    return fail(
      'transient',
      'PLATFORM_UNAVAILABLE',
      `${name} is temporarily unavailable (sandbox: attempt ${attempt} of the first ${directives.transientAttempts} fails).`,
      rawCodes.unavailable,
    );
  }

  if (directives.mediaTooLarge) {
    return fail(
      'permanent',
      'MEDIA_TOO_LARGE',
      `${name} refused the media: the file is too large (sandbox: [sandbox:media_too_large]).`,
      rawCodes.mediaTooLarge,
    );
  }
  const oversized = oversizedMedia(post.platform, request.media);
  if (oversized)
    return fail('permanent', 'MEDIA_TOO_LARGE', `${name} refused ${oversized}`, rawCodes.mediaTooLarge);

  const kindOf = mediaKindLookup(post, request.media);
  const [violation] = checkPlatformRules(
    {
      platform: post.platform,
      postType: post.postType,
      content: post.content,
      media: post.media,
      // The options and the link as the network would read them (the comment is its own call).
      ...(post.platformOptions && { platformOptions: post.platformOptions }),
      ...(post.link && { link: post.link }),
    },
    kindOf,
  );
  if (violation)
    return fail('permanent', 'PLATFORM_REJECTED', violation.message, rawCodes.invalid(violation));

  if (directives.rejected) {
    return fail(
      'permanent',
      'PLATFORM_REJECTED',
      `${profile.rejectedMessage} (sandbox: [sandbox:rejected])`,
      rawCodes.rejected,
    );
  }
  return undefined;
}

/**
 * The kind of each of the post's media references. The worker lists `request.media` in the order
 * of the post's references: top-level `media`, then (array content) each item's media in turn, so
 * position i of that list is the i-th reference here. A reference without a delivered counterpart
 * falls back to its own `type` (URL media); otherwise it is unknown, and the rules count it but skip
 * its kind checks.
 */
function mediaKindLookup(post: Pick<Post, 'content' | 'media'>, delivered: readonly DeliveryMedia[]) {
  const refs = [
    ...post.media,
    ...(typeof post.content === 'string' ? [] : post.content.flatMap((item) => item.media ?? [])),
  ];
  const kinds = new Map<MediaRef, MediaKind>();
  refs.forEach((ref, i) => {
    const kind = delivered[i]?.kind ?? ref.type;
    if (kind) kinds.set(ref, kind);
  });
  return (ref: MediaRef): MediaKind | undefined => kinds.get(ref) ?? ref.type;
}

/** A description of the first stored media item bigger than the network takes, if any. */
function oversizedMedia(platform: Platform, media: readonly DeliveryMedia[]): string | undefined {
  for (const [i, item] of media.entries()) {
    const size = item.stored?.sizeBytes;
    if (size === undefined) continue;
    const gifLimit = SANDBOX_GIF_SIZE_LIMITS[platform];
    const gif = gifLimit !== undefined && item.stored?.mimeType === 'image/gif';
    const limit = gif ? gifLimit : SANDBOX_MEDIA_SIZE_LIMITS[platform][item.kind];
    if (limit !== undefined && size > limit) {
      return `media item ${i + 1} (${item.kind}, ${megabytes(size)}): the limit is ${megabytes(limit)}.`;
    }
  }
  return undefined;
}

function megabytes(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}

function assertRange({ min, max }: LatencyRange): void {
  if (!Number.isFinite(min) || !Number.isFinite(max) || min < 0 || max < min) {
    throw new RangeError(`latencyMs must satisfy 0 ≤ min ≤ max (finite); got min ${min}, max ${max}.`);
  }
}
