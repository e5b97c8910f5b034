import type { DailyQuotas } from '../domain/account-quotas.js';
import type { Networks } from '../networks/registry.js';
import type { AccountQuotas } from '../ports/account-quotas.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { MediaStore } from '../ports/media-store.js';
import type { Metrics } from '../ports/metrics.js';
import type { OAuthStateStore } from '../ports/oauth-state-store.js';
import type { ObjectStorage } from '../ports/object-storage.js';
import type { PostStore } from '../ports/post-store.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { SecretCipher } from '../ports/secret-cipher.js';
import type { TenancyStore } from '../ports/tenancy-store.js';
import type { VideoProbe } from '../ports/video-probe.js';
import type { WebhookStore } from '../ports/webhook-store.js';
import type { Authenticator } from '../services/authenticate.js';
import type { AppCredentialsSource } from './network-config.js';

/** Everything an operation may use, behind ports. Built once per process. */
export interface ServiceDeps {
  clock: Clock;
  tenancy: TenancyStore;
  posts: PostStore;
  media: MediaStore;
  storage: ObjectStorage;
  /** A stored video's duration and frame size, read from its headers (ranged reads of the bucket). */
  videoProbe: VideoProbe;
  quotas: AccountQuotas;
  /** Each platform's daily ceiling per account; absent: DAILY_QUOTAS (YouTube's is configurable). */
  dailyQuotas?: DailyQuotas;
  rateLimiter: RateLimiter;
  authenticator: Authenticator;
  /** Webhooks, their delivery history and the event feed. */
  webhooks: WebhookStore;
  /** Encrypts webhook signing secrets (KMS; AES-256-GCM on the local host). */
  secrets: SecretCipher;
  /**
   * What webhook receiver URLs may be beyond public HTTPS (shared/domain/webhooks/receiver-url.ts).
   * `allowLoopbackHttp` is true on the local host only, which sets it itself: no environment
   * variable or configuration of a deployment can relax the rule.
   */
  webhookReceivers: { allowLoopbackHttp: boolean };
  /** The real networks, by platform (shared/networks/registry.ts). */
  networks: Networks;
  /** The networks' app credentials: the environment locally, Secrets Manager in AWS. */
  appCredentials: AppCredentialsSource;
  /** `${publicBaseUrl}/v1/oauth/{platform}/callback` is the OAuth callback; absent: connect answers 503. */
  publicBaseUrl?: string;
  /**
   * What a connect's `redirectUri` may be beyond HTTPS: loopback http on the local host only,
   * which sets it itself, as for webhook receivers.
   */
  oauthRedirects: { allowLoopbackHttp: boolean };
  /** Connects waiting for the network to send the user back (single-use states, 10 minutes). */
  oauthStates: OAuthStateStore;
  /** The process's logger; handlers log through a child that carries the request's ids. */
  logger: Logger;
  metrics: Metrics;
}
