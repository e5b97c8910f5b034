import type { DailyQuotas } from '../../domain/account-quotas.js';
import type { RetryPolicy } from '../../domain/retry-policy.js';
import type { Account } from '../../domain/tenancy.js';
import type { Networks } from '../../networks/registry.js';
import type { AccountQuotas } from '../../ports/account-quotas.js';
import type { AccountStore } from '../../ports/account-store.js';
import type { Clock } from '../../ports/clock.js';
import type { Connector, LinkPreviewReader } from '../../ports/connector.js';
import type { Logger } from '../../ports/logger.js';
import type { MediaBytes } from '../../ports/media-bytes.js';
import type { MediaFetcher } from '../../ports/media-fetcher.js';
import type { MediaUrls } from '../../ports/media-urls.js';
import type { Metrics } from '../../ports/metrics.js';
import type { ObjectStorage } from '../../ports/object-storage.js';
import type { PostStore } from '../../ports/post-store.js';
import type { DeliveryMessage, MessageQueue } from '../../ports/queues.js';
import type { SecretCipher } from '../../ports/secret-cipher.js';
import type { VideoProbe } from '../../ports/video-probe.js';
import type { WorkspaceStore } from '../../ports/workspace-store.js';

/**
 * How long a claim lasts unless renewed. The worker renews it every LEASE_MS / 4 while it holds the
 * post, so a live worker keeps it however long the network takes, and a dead one (a crash, a killed
 * host, a Lambda past its time-out) loses it within LEASE_MS: the reconciler then takes it back.
 */
export const LEASE_MS = 20 * 1000;
/** A network call that takes longer is abandoned (its signal aborted); the outcome is unknown. */
export const CONNECTOR_TIMEOUT_MS = 60 * 1000;
/** How long the look-up after an unknown outcome may take; past it the network "cannot tell". */
export const LOOKUP_TIMEOUT_MS = 10 * 1000;

/** What the worker, and the settle step it shares with the reconciler, work with. */
export interface DeliveryDeps {
  posts: PostStore;
  quotas: AccountQuotas;
  /** Each platform's daily ceiling per account; absent: DAILY_QUOTAS. */
  dailyQuotas?: DailyQuotas;
  storage: ObjectStorage;
  /** Reads the duration of URL media fetched at delivery, checked before the network is called. */
  videoProbe: VideoProbe;
  fetchMedia: MediaFetcher;
  /** The post's account and its tokens. */
  tenancy: AccountStore;
  /**
   * The workspaces, for their metrics setting (domain/metrics-settings.ts); absent, every
   * workspace has the default.
   */
  workspaces?: Pick<WorkspaceStore, 'getWorkspace'>;
  deliveryQueue: MessageQueue<DeliveryMessage>;
  connectorFor(account: Account): Connector | undefined;
  /** The real networks: their OAuth renews an account's tokens before a post goes out. */
  networks: Networks;
  /** Opens (and seals again, after a refresh) an account's tokens: purpose `oauth-token`. */
  secrets: SecretCipher;
  /** Stored media's bytes, read in chunks by a connector's upload. */
  bytes: MediaBytes;
  /**
   * Reads a page's Open Graph card for a post's link, where the connector builds the card
   * (LinkedIn, Bluesky); absent, such a card has only what the post gives.
   */
  linkPreview?: LinkPreviewReader;
  /** Presigned GETs of stored media, for a network that fetches them (the photo network). */
  mediaUrls?: MediaUrls;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Defaults: LEASE_MS, CONNECTOR_TIMEOUT_MS, LOOKUP_TIMEOUT_MS, DEFAULT_RETRY_POLICY; tests shorten them. */
  leaseMs?: number;
  connectorTimeoutMs?: number;
  lookupTimeoutMs?: number;
  retryPolicy?: RetryPolicy;
}

/** How one delivery message ended. */
export type DeliveryResult =
  /** The post is published (by this delivery, or found on the network). */
  | 'published'
  /** Delivered as a draft to the creator's inbox (TikTok): final, awaiting_creator. */
  | 'awaiting_creator'
  /** Queued again for a later attempt. */
  | 'retrying'
  /** Queued again for a check: the network is processing the post (a video, a container). */
  | 'pending'
  | 'failed'
  /** Failed with delivery_uncertain: the network may have the post and cannot say. */
  | 'uncertain'
  /** A published post's network id was looked up (found, or asked again later). */
  | 'followed_up'
  /** A published post's first comment was tried (made, queued again, failed or uncertain). */
  | 'comment'
  /** A published post's metrics were collected (or the network's reason for none stored). */
  | 'metrics_collected'
  /** Not due yet: the message was put back with a delay. */
  | 'held'
  /** Nothing to do (a duplicate or late message, a lost race, a lost claim). */
  | 'dropped';
