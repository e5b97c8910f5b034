import { randomBytes } from 'node:crypto';

/** A LinkedIn member the fake knows; `sub` is their id (`urn:li:person:{sub}`). */
export interface FakeMember {
  sub: string;
  name: string;
  givenName: string;
  familyName: string;
  email: string;
  picture?: string;
  /** The public profile's vanity name (`/v2/me` with r_basicprofile). */
  vanityName?: string;
}

/** A member's role on a Page (organizationAcls). */
export interface FakeAcl {
  member: string;
  organization: string;
  role: string;
  state: 'APPROVED' | 'REQUESTED' | 'REJECTED' | 'REVOKED';
}

export interface FakeAuthCode {
  code: string;
  /** The app the code was issued to: only its client may redeem it. */
  clientId: string;
  member: string;
  scopes: string[];
  redirectUri: string;
  expiresAt: number;
  used: boolean;
}

export interface FakeAccessToken {
  accessToken: string;
  clientId: string;
  member: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

export interface FakeRefreshToken {
  refreshToken: string;
  clientId: string;
  member: string;
  scopes: string[];
  /** Fixed at the first grant: a refresh never extends it (linkedin.md §6). */
  expiresAt: number;
  revoked: boolean;
}

export type FakeMediaKind = 'image' | 'video' | 'document';
export type FakeMediaStatus = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

export interface FakeVideoPart {
  firstByte: number;
  lastByte: number;
  uploadUrl: string;
  etag?: string;
}

export interface FakeUpload {
  urn: string;
  kind: FakeMediaKind;
  owner: string;
  status: FakeMediaStatus;
  /** Where the bytes go: one URL (images, documents) or one per part (videos). */
  uploadUrl?: string;
  /** Bytes received, in order (parts assembled for a video once finalized). */
  bytes?: Buffer;
  /** Videos: the declared size, the parts, the token finalize must repeat. */
  fileSizeBytes?: number;
  parts?: FakeVideoPart[];
  uploadToken?: string;
  /** Status checks still answered PROCESSING before the outcome. */
  checksLeft: number;
  /** How processing ends. */
  ends: 'AVAILABLE' | 'PROCESSING_FAILED';
}

export interface FakePost {
  id: string;
  author: string;
  /** As sent, little-text escapes and all. */
  commentary: string;
  /** What LinkedIn shows: escapes resolved, cut at the first unescaped reserved character. */
  publishedText: string;
  visibility: string;
  lifecycleState: string;
  distribution: unknown;
  content?: {
    media?: { id: string; altText?: string; title?: string };
    multiImage?: { images: { id: string; altText?: string }[] };
    poll?: FakePoll;
    article?: FakeArticle;
  };
  isReshareDisabledByAuthor?: boolean;
  createdAt: number;
  /** Deleted at LinkedIn (by the member, elsewhere): reads answer 404 from then on. */
  deletedAt?: number;
}

/** A poll as the Posts API takes it (`content.poll`). */
export interface FakePoll {
  question: string;
  options: { text: string }[];
  settings: { duration: string; voteSelectionType: string; isVoterVisibleToAuthor: boolean };
}

/** An article share's card (`content.article`): LinkedIn shows what it was given, nothing scraped. */
export interface FakeArticle {
  source: string;
  title: string;
  description?: string;
  thumbnail?: string;
  thumbnailAltText?: string;
}

/** A comment on a post (Comments API). */
export interface FakeComment {
  /** `urn:li:comment:({post},{id})`. */
  urn: string;
  id: string;
  /** The post commented on. */
  object: string;
  actor: string;
  /** As sent, little-text escapes and all. */
  text: string;
  /** What LinkedIn shows (escapes resolved, cut at an unescaped reserved character). */
  publishedText: string;
  createdAt: number;
}

/** Everything the fake holds, in memory, for one run. */
export class FakeLinkedInStore {
  readonly members = new Map<string, FakeMember>();
  readonly acls: FakeAcl[] = [];
  readonly codes = new Map<string, FakeAuthCode>();
  readonly accessTokens = new Map<string, FakeAccessToken>();
  readonly refreshTokens = new Map<string, FakeRefreshToken>();
  readonly uploads = new Map<string, FakeUpload>();
  readonly posts: FakePost[] = [];
  readonly comments: FakeComment[] = [];
  /** Analytics reads counted per `{finder} {member} {UTC day}` (the daily limit). */
  readonly metricsReads = new Map<string, number>();
  /** Follower counts a test set, by member; others grow from `startedAt`. */
  readonly followers = new Map<string, number>();
  /** The fake clock's time at start: follower counts grow from it. */
  startedAt = 0;
  private sequence = 0;

  /** LinkedIn's ids are long numbers; these count up from a realistic start. */
  nextNumber(): string {
    this.sequence += 1;
    return (7_300_000_000_000_000_000n + BigInt(this.sequence)).toString();
  }

  /** An opaque id like LinkedIn's media ids (`C4E10AQ…`). */
  opaque(prefix = 'C4E10AQ'): string {
    return `${prefix}${randomBytes(9).toString('base64url')}`;
  }

  secret(bytes = 24): string {
    return randomBytes(bytes).toString('base64url');
  }

  /** The member's approved roles on a Page. */
  rolesOn(member: string, organization: string): string[] {
    return this.acls
      .filter((acl) => acl.member === member && acl.organization === organization && acl.state === 'APPROVED')
      .map((acl) => acl.role);
  }
}
