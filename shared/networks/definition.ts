/**
 * What a network is, as data: the part of a network that the domain, the operations, OpenAPI, the
 * composition roots, CDK and the dashboard may know of. Each network declares its own in
 * `shared/networks/<net>/definition.ts` (data, schemas and pure checks: no connector, no SDK, nothing
 * that calls out), and `shared/networks/definitions.ts` collects them; everything else derives from that list.
 */
import type { NetworkOptions } from '../domain/network-options.js';
import type { NetworkRules } from '../domain/platform-rules/helpers.js';
import type { MediaKind, PostType } from '../domain/post-shape.js';

/**
 * An approximate daily ceiling per connected account (interface 8.5): posts, or the units of a
 * network that counts quota units (a YouTube upload costs about 1,600).
 */
export interface DailyQuota {
  limit: number;
  unit: 'posts' | 'quota_units';
  costPerPost: number;
}

export interface NetworkDefinition {
  /** The platform value of the API (the interface's "Platforms and post types"). */
  readonly platform: string;
  /** The name people know the network by: the dashboard's tables, the connect result page. */
  readonly displayName: string;
  /** Other names accepted on input (lower case), stored as `platform`. */
  readonly aliases: readonly string[];
  /** The post types it takes (the interface's "Platforms and post types"). */
  readonly postTypes: readonly PostType[];
  /** Its approximate daily ceiling per connected account (domain/account-quotas.ts). */
  readonly dailyQuota: DailyQuota;
  /**
   * The counter shared by every account of the network, when its provider enforces the quota per
   * app rather than per account (`QUOTA#<counter>#<day>`, beside the accounts' counters).
   */
  readonly projectQuotaCounter?: string;
  /** Whether its connector reports the account's own quota (the account read shows it). */
  readonly reportsOwnQuota?: boolean;
  /** The handle of the sandbox account an operator's bootstrap connects for it. */
  readonly sandboxHandle: string;
  /**
   * The network's developer apps, the default first (the one a connect uses unless told
   * otherwise). Each app's credentials come from `<APP>_CLIENT_ID` and `<APP>_CLIENT_SECRET` on the
   * local host, and from one Secrets Manager secret (`<APP>_APP_SECRET_ARN`) in AWS (docs/deploy.md).
   */
  readonly apps: readonly [string, ...string[]];
  /**
   * Every address its connector or its OAuth calls, by environment variable, with the real host as
   * the default. Tests and `npm run fake-networks` point them at the fakes on loopback.
   */
  readonly endpoints: Readonly<Record<string, string>>;
  /**
   * Its content rules (networks/*.md): text, shape, media and video duration checks, written with
   * the domain's rule kit (domain/platform-rules/helpers.ts, shapes.ts), in `<net>/rules.ts`.
   */
  readonly rules: NetworkRules;
  /**
   * Its `platformOptions.<platform>`: the schema, its descriptions and the checks that need the
   * post, in `<net>/options-schema.ts` (domain/platform-options.ts builds the API's from them).
   */
  readonly platformOptions: NetworkOptions;
  /**
   * The post warnings it may give, each with an example of when, for a person: the Post's
   * `warnings` description gives it in parentheses after the warning's meaning.
   */
  readonly warningExamples?: Readonly<Record<string, string>>;
  /**
   * When its provider lets a project's quota differ from `dailyQuota` (granted on request, a cost
   * that changes): the settings an operator sets it with, each an environment variable of the
   * functions and a CDK context key of the same name (docs/deploy.md).
   */
  readonly quotaSettings?: QuotaSettings;
  /**
   * When its connector may publish a post before the network names it (a PostIdFollowUp): why, for
   * a person, in the PLATFORM_POST_ID_PENDING and PLATFORM_POST_ID_UNAVAILABLE warnings.
   */
  readonly lateIdNotes?: LateIdNotes;
  /**
   * When the network has more than one kind of developer app and a connect may pick one: the field
   * that names the kind (on the connect body and the account read) and each kind's app.
   */
  readonly appChoice?: AppChoice;
  /**
   * What the account read's usage says of the network's quota counters beyond the account's own,
   * for a person: each note stands after "<displayName> only: ".
   */
  readonly usageNotes?: UsageNotes;
  /** A post of the network as published, for the documentation's examples (the webhook bodies). */
  readonly examplePublished?: ExamplePublished;
  /**
   * What its metrics need and cost (docs/metrics.md): absent, the network gives none and its
   * posts' metrics answer a clear code.
   */
  readonly metrics?: NetworkMetrics;
  /**
   * Whether a post may carry a first comment, and what the comment may hold
   * (domain/platform-rules/first-comment.ts checks it; docs/first-comment.md). Absent: refused.
   */
  readonly firstComment?: FirstCommentSupport;
  /** What the network does with a post's `link` (domain/platform-rules/link.ts). Absent: refused. */
  readonly linkPreview?: LinkPreviewSupport;
}

/** A network's first comment, as data (the connector's `publishComment` makes it). */
export interface FirstCommentSupport {
  /** The most characters a comment may have (the network's own limit, counted as code points). */
  readonly maxLength: number;
  /** The media kinds a comment may carry; empty: text only. */
  readonly mediaKinds: readonly MediaKind[];
  /** The most media items a comment may carry (0 with no media kinds). */
  readonly maxMedia: number;
  /**
   * The OAuth scopes commenting needs beyond posting: an account connected without them is told to
   * reconnect before anything is created (FIRST_COMMENT_NEEDS_RECONNECT).
   */
  readonly scopes?: readonly string[];
  /** How it is made at the network, for people (docs/first-comment.md): "a reply from the same account". */
  readonly how: string;
}

/** A network's link card, as data. */
export interface LinkPreviewSupport {
  /**
   * `ours`: the network shows only the card we send (title, description and thumbnail from the
   * post's `link`, else the page's Open Graph tags); `network`: it reads the page itself, only the
   * URL is sent, and a given title, description or thumbnail is refused as unsupported.
   */
  readonly card: 'ours' | 'network';
  /** The post types that may carry a link. */
  readonly postTypes: readonly PostType[];
  /** Whether a post may carry media beside its link card. */
  readonly withMedia: boolean;
}

/** A network's metrics as data: the rest derives from it (the scopes asked at connect, the batching, the docs). */
export interface NetworkMetrics {
  /** The OAuth scopes its metrics need, asked for at connect with the rest. */
  readonly scopes: readonly string[];
  /**
   * The scopes one post's metrics need, where that depends on what it was published as (LinkedIn:
   * a Page's post needs rw_organization_admin only), from the post's platformOptions. Absent: `scopes`.
   */
  readonly postScopes?: (platformOptions: Readonly<Record<string, unknown>> | undefined) => readonly string[];
  /**
   * The scopes the account's own numbers (followers…) need, where fewer than `scopes` (TikTok's
   * user.info.stats without video.list; Instagram's GET /me, none of the insights scope). Absent: `scopes`.
   */
  readonly accountScopes?: readonly string[];
  /** The most posts one request reads (X 100, YouTube 50, TikTok 20; 1 where it takes one id). */
  readonly batchSize: number;
  /** Each field of ours and the network's own name for it, for docs/metrics.md. */
  readonly fields: Readonly<Record<string, string>>;
  /** The network's request(s) that read them, for docs/metrics.md. */
  readonly source: string;
  /** What reading them costs, where it does (X's per-read pricing, YouTube's units). */
  readonly cost?: string;
  /**
   * True where each read is billed in money (X): a workspace collects them only when its setting
   * names the network (domain/metrics-settings.ts); the default leaves them out.
   */
  readonly paidPerRead?: boolean;
}

/** The names of the settings that override a network's `dailyQuota`; either alone keeps the other's default. */
export interface QuotaSettings {
  /** Sets `limit`. */
  readonly limit: string;
  /** Sets `costPerPost`; it may not exceed the limit. */
  readonly costPerPost: string;
}

/** Why a network names a published post late, said within the warnings' sentences. */
export interface LateIdNotes {
  /** While the service waits for the id. */
  readonly pending: string;
  /** When the id never came. */
  readonly unavailable: string;
}

/**
 * A network's kinds of developer app, one of which a connect may ask for by name (e.g. a member
 * app and a Community Management app, which LinkedIn allows no other product beside).
 */
export interface AppChoice {
  /** The field naming the kind, on the connect body and on the account read (a public API name). */
  readonly field: string;
  /** Each kind and its app (one of `apps`), the default app's kind first: an account recording no app is of that kind. */
  readonly kinds: Readonly<Record<string, string>>;
  /** The connect field's description, after "<displayName> only: the kind of app to connect through. ". */
  readonly connectDescription: string;
  /** The account field's description, after "<displayName> accounts (not sandbox): the kind of app it was connected through. ". */
  readonly accountDescription: string;
  /** The connect operation's note on it, after "<displayName> has <two> kinds of app (`<field>`): ". */
  readonly connectNote: string;
  /** The dashboard's connect form: the kinds offered as a choice of their own, with their labels. */
  readonly dashboardChoices: Readonly<Record<string, string>>;
}

/** The account read's notes on the counters a network adds to the account's own (`usage`). */
export interface UsageNotes {
  /** `usage.project`: the counter every account of the app shares (`projectQuotaCounter`). */
  readonly project?: string;
  /** `usage.network`: the network's own count it reports (`reportsOwnQuota`). */
  readonly network?: string;
  /** `usage.network.windowSeconds`: the network's window, after "The network’s window: ". */
  readonly networkWindow?: string;
}

/** A published post's ids as the network gives them. */
export interface ExamplePublished {
  readonly platformPostId: string;
  readonly platformPostUrl: string;
}

/** Checks a definition's shape while keeping its literal types (`platform: 'twitter'`, the apps, the endpoint names). */
export function defineNetwork<const D extends NetworkDefinition>(definition: D): D {
  return definition;
}
