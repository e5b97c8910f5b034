import { makeVideoProbe } from '../../../shared/adapters/video-probe/video-probe.js';
import type { NetworkQuotaReading } from '../../../shared/domain/account-quotas.js';
import type { Post, PostWarning } from '../../../shared/domain/posts.js';
import type { Account } from '../../../shared/domain/tenancy.js';
import { makeConnectorFor } from '../../../shared/networks/connector-for.js';
import type { Networks } from '../../../shared/networks/registry.js';
import type { AccountQuotas } from '../../../shared/ports/account-quotas.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type {
  Connector,
  LookupOutcome,
  LookupRequest,
  PublishOutcome,
  PublishProgress,
  PublishRequest,
} from '../../../shared/ports/connector.js';
import type { FetchedMedia, MediaFetcher } from '../../../shared/ports/media-fetcher.js';
import type { TokenSet } from '../../../shared/ports/network-oauth.js';
import type { DeliveryMessage } from '../../../shared/ports/queues.js';
import { openTokens, sealTokens } from '../../../shared/services/accounts/token-vault.js';
import type { DeliveryDeps } from '../../../shared/services/delivery/delivery-deps.js';
import { makeMemoryLogger, makeMemoryMetrics } from '../../support/memory-observability.js';
import { anAccount, aTenant, aWorkspace } from './builders.js';
import { InMemoryMediaBytes } from './in-memory-media-bytes.js';
import { InMemoryMediaStore } from './in-memory-media-store.js';
import { InMemoryObjectStorage } from './in-memory-object-storage.js';
import { InMemoryPostStore } from './in-memory-post-store.js';
import { InMemorySecretCipher } from './in-memory-secret-cipher.js';
import { InMemoryTenancyStore } from './in-memory-tenancy-store.js';
import { RecordingQueue } from './recording-queues.js';

/** Daily quota counters in memory, with the DynamoDB adapter's rule: never past the limit. */
export class InMemoryAccountQuotas implements AccountQuotas {
  private readonly counters = new Map<string, number>();

  async reserve(accountId: string, day: string, cost: number, limit: number): Promise<boolean> {
    const used = this.counters.get(`${accountId}#${day}`) ?? 0;
    if (used + cost > limit) return false;
    this.counters.set(`${accountId}#${day}`, used + cost);
    return true;
  }

  async release(accountId: string, day: string, cost: number): Promise<void> {
    const used = this.counters.get(`${accountId}#${day}`) ?? 0;
    this.counters.set(`${accountId}#${day}`, Math.max(0, used - cost));
  }

  async used(accountId: string, day: string): Promise<number> {
    return this.counters.get(`${accountId}#${day}`) ?? 0;
  }

  private readonly readings = new Map<string, NetworkQuotaReading>();

  async recordNetworkReading(accountId: string, reading: NetworkQuotaReading): Promise<void> {
    const kept = this.readings.get(accountId);
    if (!kept || kept.readAt <= reading.readAt) this.readings.set(accountId, reading);
  }

  async networkReading(accountId: string): Promise<NetworkQuotaReading | undefined> {
    return this.readings.get(accountId);
  }
}

/** How the fake network answers one publish call. */
export type NetworkAnswer =
  /** Makes the post and answers published. */
  | { kind: 'publish' }
  /** Answers a failure without making the post. */
  | { kind: 'fail'; outcome: Extract<PublishOutcome, { kind: 'failed' }> }
  /** Makes the post (or not) and answers `unknown` (a reset after the request was sent). */
  | { kind: 'unknown'; posted: boolean; progress?: PublishProgress }
  /** Makes nothing yet and answers `pending`: the network is processing (a video). */
  | { kind: 'pending'; progress: PublishProgress; checkAfterSeconds: number; stage?: string }
  /** Throws without an answer (a connector bug, a dropped connection), having made the post or not. */
  | { kind: 'throw'; posted: boolean }
  /**
   * Makes the post (or not), then answers published only once `release()` is called, whatever the
   * signal says: a network that received the request and is slow to say so.
   */
  | { kind: 'hang'; posted: boolean }
  /** Waits for the abort signal and rejects with its reason, making nothing: a request still travelling. */
  | { kind: 'until_aborted' }
  /** Takes the post as a draft in the creator's inbox (TikTok's upload to inbox): awaiting_creator. */
  | { kind: 'hand_over'; warnings?: PostWarning[] };

/** How the fake network answers a look-up. */
export type LookupMode = 'ledger' | 'throw' | 'hang' | 'not_found' | 'awaiting_creator';

/**
 * A network without idempotency: every call that makes a post makes a NEW one (as a real network
 * would for a blind retry), so `posts` counts what a reader of the account would see. Publish calls
 * follow the scripted answers in order (then `publish`); `findPublished` reads what was made, unless
 * `lookup` says otherwise, and is missing altogether when `canLookUp` is false.
 */
export class FakeNetwork implements Connector {
  /** Client references of the posts made, one entry per post on the network. */
  readonly posts: string[] = [];
  readonly requests: PublishRequest[] = [];
  /** Every look-up asked of it, in order. */
  readonly lookups: LookupRequest[] = [];
  lookup: LookupMode = 'ledger';
  findPublished?: Connector['findPublished'];
  private readonly script: NetworkAnswer[] = [];
  private releases: (() => void)[] = [];

  constructor(options: { canLookUp?: boolean } = {}) {
    if (options.canLookUp !== false) this.findPublished = (request) => this.find(request);
  }

  /** The next calls answer these, in order. */
  answer(...answers: NetworkAnswer[]): this {
    this.script.push(...answers);
    return this;
  }

  /** Lets every hanging call answer. */
  release(): void {
    for (const release of this.releases) release();
    this.releases = [];
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    this.requests.push(request);
    const answer = this.script.shift() ?? { kind: 'publish' };
    const made = (): PublishOutcome => {
      this.posts.push(request.clientReference);
      return { kind: 'published', ...this.identity(request.clientReference, this.posts.length) };
    };
    switch (answer.kind) {
      case 'publish':
        return made();
      case 'fail':
        return answer.outcome;
      case 'unknown':
        if (answer.posted) made();
        return {
          kind: 'unknown',
          code: 'CONNECTION_RESET',
          message: 'The connection was reset.',
          ...(answer.progress && { progress: answer.progress }),
        };
      case 'pending':
        return {
          kind: 'pending',
          progress: answer.progress,
          checkAfterSeconds: answer.checkAfterSeconds,
          stage: answer.stage ?? 'media_processing',
        };
      case 'throw':
        if (answer.posted) made();
        throw new TypeError('fetch failed');
      case 'hang': {
        const outcome = answer.posted ? made() : undefined;
        await new Promise<void>((resolve) => this.releases.push(resolve));
        return outcome ?? made();
      }
      case 'hand_over':
        return { kind: 'awaiting_creator', ...(answer.warnings && { warnings: answer.warnings }) };
      case 'until_aborted':
        return new Promise<PublishOutcome>((_resolve, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
        });
    }
  }

  private async find(request: LookupRequest): Promise<LookupOutcome> {
    this.lookups.push(request);
    const { clientReference: reference, signal } = request;
    switch (this.lookup) {
      case 'throw':
        throw new Error('lookup failed');
      case 'hang':
        return new Promise<LookupOutcome>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      case 'not_found':
        return { kind: 'not_found' };
      case 'awaiting_creator':
        return { kind: 'found_awaiting_creator' };
      case 'ledger': {
        const index = this.posts.indexOf(reference);
        return index < 0 ? { kind: 'not_found' } : { kind: 'found', ...this.identity(reference, index + 1) };
      }
    }
  }

  /** The n-th post on the network. */
  private identity(reference: string, n: number) {
    return {
      platformPostId: `net-${n}`,
      platformPostUrl: `https://network.example/${reference}/${n}`,
    };
  }
}

/** A media fetcher that answers from a table of URLs: bytes, or an error with its code. */
export function fakeMediaFetcher(
  answers: Record<string, FetchedMedia | { code: string; transient?: boolean }>,
): MediaFetcher & { fetched: string[] } {
  const fetched: string[] = [];
  const fetcher = async (url: string) => {
    fetched.push(url);
    const answer = answers[url];
    if (!answer) throw Object.assign(new Error(`No such URL: ${url}`), { code: 'media_url_unreachable' });
    if ('code' in answer) {
      throw Object.assign(new Error(`Refused: ${url} (${answer.code})`), answer);
    }
    return answer;
  };
  return Object.assign(fetcher, { fetched });
}

export const DELIVERY_NOW = Date.parse('2030-01-01T12:00:00.000Z');
export const TENANT_ID = 'ten_01JD0000000000000000000000';
export const WORKSPACE_ID = 'wks_01JD0000000000000000000000';
export const ACCOUNT_ID = 'acc_01JD0000000000000000000000';
export const POST_ID = 'pst_01JD0000000000000000000000';

/** `ms` after the world's start, as ISO 8601. */
export const atDelivery = (ms: number) => new Date(DELIVERY_NOW + ms).toISOString();

/**
 * Everything the worker, the settle step and the reconciler run on, in memory, with a fixed clock
 * (waiting in place advances it), deterministic jitter, and short time-outs: a connected sandbox
 * twitter account, and `connectorFor` giving sandbox accounts the fake network, and other accounts
 * their network's connector from `networks` (none unless given). `connectRealAccount` turns the
 * world's account into a real network's, with tokens sealed as the connect flow seals them.
 */
export async function aDeliveryWorld(options: { network?: FakeNetwork; networks?: Networks } = {}) {
  const clock = fixedClock(DELIVERY_NOW);
  const tenancy = new InMemoryTenancyStore();
  const media = new InMemoryMediaStore();
  const posts = new InMemoryPostStore({ tenancy, media });
  await tenancy.putTenant(aTenant({ tenantId: TENANT_ID }));
  await tenancy.putWorkspace(aWorkspace({ tenantId: TENANT_ID, workspaceId: WORKSPACE_ID }));
  await tenancy.putAccount(
    anAccount({ tenantId: TENANT_ID, workspaceId: WORKSPACE_ID, accountId: ACCOUNT_ID }),
  );
  const network = options.network ?? new FakeNetwork();
  const networks: Networks = options.networks ?? new Map();
  const logger = makeMemoryLogger();
  const metrics = makeMemoryMetrics();
  const storage = new InMemoryObjectStorage(clock);
  const secrets = new InMemorySecretCipher();
  const deps = {
    posts,
    tenancy,
    quotas: new InMemoryAccountQuotas(),
    storage,
    fetchMedia: fakeMediaFetcher({}) as MediaFetcher,
    deliveryQueue: new RecordingQueue<DeliveryMessage>(),
    connectorFor: makeConnectorFor({ sandbox: network, networks }),
    networks,
    secrets,
    bytes: new InMemoryMediaBytes(storage),
    videoProbe: makeVideoProbe(new InMemoryMediaBytes(storage)),
    clock,
    logger,
    metrics,
    sleep: async (ms: number) => clock.advance(ms),
    random: () => 0.5,
    connectorTimeoutMs: 30,
    lookupTimeoutMs: 30,
  } satisfies DeliveryDeps;
  /** Stores a post of the world's account (queued, due now, unless told otherwise). */
  const seedPost = (overrides: Partial<Post> = {}): Post => {
    const post: Post = {
      postId: POST_ID,
      tenantId: TENANT_ID,
      workspaceId: WORKSPACE_ID,
      accountId: ACCOUNT_ID,
      platform: 'twitter',
      postType: 'text',
      status: 'queued',
      content: 'hello',
      media: [],
      createdAt: atDelivery(-60_000),
      updatedAt: atDelivery(-60_000),
      attempts: 0,
      createdBy: 'agt_01JD0000000000000000000000',
      version: 1,
      ...overrides,
    };
    posts.seed(post);
    return post;
  };
  const stored = async (postId = POST_ID) => posts.get(TENANT_ID, WORKSPACE_ID, postId) as Promise<Post>;
  const message: DeliveryMessage = { tenantId: TENANT_ID, workspaceId: WORKSPACE_ID, postId: POST_ID };
  /** The world's account as a real network's (not sandbox), holding `tokens`, sealed. */
  const connectRealAccount = async (tokens: TokenSet, overrides: Partial<Account> = {}): Promise<Account> => {
    const owner = { tenantId: TENANT_ID, workspaceId: WORKSPACE_ID, accountId: ACCOUNT_ID };
    const account = anAccount({
      ...owner,
      sandbox: false,
      networkUserId: '2244994945',
      scopes: tokens.scopes,
      ...(tokens.expiresAt && { tokenExpiresAt: tokens.expiresAt }),
      encryptedTokens: await sealTokens(secrets, owner, tokens),
      tokensVersion: 1,
      ...overrides,
    });
    await tenancy.putAccount(account);
    return account;
  };
  /** The tokens the world's account holds now. */
  const storedTokens = async (): Promise<TokenSet> => {
    const account = await tenancy.getAccount(TENANT_ID, WORKSPACE_ID, ACCOUNT_ID);
    if (!account?.encryptedTokens) throw new Error('The account holds no tokens.');
    return openTokens(secrets, account, account.encryptedTokens);
  };
  return { ...deps, media, network, seedPost, stored, message, connectRealAccount, storedTokens };
}

export type DeliveryWorld = Awaited<ReturnType<typeof aDeliveryWorld>>;
