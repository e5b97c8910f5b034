import { type Hash, randomBytes } from 'node:crypto';

/** What the fake X holds: its users, the OAuth grants it issued, the tweets and the uploads. */

export interface FakeXUser {
  id: string;
  username: string;
  name: string;
  profileImageUrl?: string;
  /** X Premium / verified: larger media limits (media-limits.ts). */
  premium?: boolean;
  /** Followers when the fake starts (default 100); one more each hour of the fake's clock (metrics-growth.ts). */
  followers?: number;
  /** Accounts it follows (default 50). */
  following?: number;
}

export interface ConsentRequest {
  ticket: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string;
  codeChallenge: string;
  codeChallengeMethod: 'S256' | 'plain';
}

export interface AuthorizationCode {
  code: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  userId: string;
  codeChallenge: string;
  codeChallengeMethod: 'S256' | 'plain';
  expiresAt: number;
  used: boolean;
}

export interface FakeAccessToken {
  token: string;
  /** One consent: the tokens it issued, refresh after refresh, share it (a revoke ends them all). */
  grantId: string;
  userId: string;
  clientId: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

export interface FakeRefreshToken {
  token: string;
  grantId: string;
  userId: string;
  clientId: string;
  scopes: string[];
  /** Used once (X rotates on every refresh): it never works again. */
  used: boolean;
  revoked: boolean;
}

export interface FakeTweet {
  id: string;
  authorId: string;
  /** As it was sent. */
  text: string;
  /** As X shows it: links shortened, `&<>` escaped, a link to the media appended (render.ts). */
  renderedText: string;
  createdAt: number;
  mediaIds: string[];
  replyTo?: string;
  replySettings?: string;
  /** The post it quotes (`quote_tweet_id`). */
  quoteOf?: string;
  communityId?: string;
  /** Its poll, as sent; `pollId` names it in `attachments.poll_ids`. */
  poll?: { id: string; options: string[]; durationMinutes: number };
}

/** An X Community (GET /2/communities/{id}): only members may post in it. */
export interface FakeCommunity {
  id: string;
  name: string;
  access: 'Public' | 'Closed';
  memberIds: Set<string>;
}

/**
 * X's restriction on replies through the API (research first-comment-and-link-previews.md §1.1,
 * Feb 2026): `off`, none; `others`, a reply only to one's own posts (were self-replies exempt);
 * `all`, no reply at all (were they not): a first comment is refused with 403.
 */
export type ReplyRestriction = 'off' | 'others' | 'all';

export type ProcessingState = 'pending' | 'in_progress' | 'succeeded' | 'failed';

export interface ProcessingPlan {
  /** STATUS answers before the final state. */
  polls: number;
  outcome: 'succeeded' | 'failed';
  checkAfterSecs: number;
}

export interface FakeMedia {
  id: string;
  mediaKey: string;
  ownerId: string;
  mediaType: string;
  category: string;
  totalBytes: number;
  /** Each appended segment's size, in order. */
  segments: number[];
  received: number;
  /** Over the bytes in the order received; its hex `sha256` is set at FINALIZE, for tests to compare. */
  digest: Hash;
  sha256?: string;
  stage: 'uploading' | 'finalized';
  processing?: ProcessingState;
  plan: ProcessingPlan;
  statusPolls: number;
  altText?: string;
}

export class FakeXStore {
  readonly users = new Map<string, FakeXUser>();
  readonly consents = new Map<string, ConsentRequest>();
  readonly codes = new Map<string, AuthorizationCode>();
  readonly accessTokens = new Map<string, FakeAccessToken>();
  readonly refreshTokens = new Map<string, FakeRefreshToken>();
  readonly tweets: FakeTweet[] = [];
  readonly media = new Map<string, FakeMedia>();
  readonly communities = new Map<string, FakeCommunity>();
  replyRestriction: ReplyRestriction = 'off';
  private nextSnowflake = 1_880_000_000_000_000_000n;
  private clockOffsetMs = 0;
  /** When the fake started, on its own clock: what the users' follower counts grow from. */
  readonly startedAt = Date.now();

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  advanceClock(ms: number): void {
    this.clockOffsetMs += ms;
  }

  /** 19-digit ids that grow, as X's snowflakes do. */
  snowflake(): string {
    this.nextSnowflake += BigInt(1 + Math.floor(Math.random() * 1000));
    return this.nextSnowflake.toString();
  }

  secret(prefix: string): string {
    return `${prefix}${randomBytes(24).toString('base64url')}`;
  }

  /** A valid access token's grant, or undefined (unknown, expired, revoked). */
  accessTokenFor(token: string): FakeAccessToken | undefined {
    const found = this.accessTokens.get(token);
    if (!found || found.revoked || found.expiresAt <= this.now()) return undefined;
    return found;
  }

  tweetsBy(userId: string): FakeTweet[] {
    return this.tweets.filter((tweet) => tweet.authorId === userId);
  }
}
