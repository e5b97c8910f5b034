import { FailureQueues, type QueuedFailure } from '../shared/failure-injection.js';
import type {
  FakeAcl,
  FakeComment,
  FakeLinkedInStore,
  FakeMediaKind,
  FakeMember,
  FakePost,
  FakeUpload,
} from './store.js';

/** Every route of the fake, by name: failures are injected per endpoint. */
export const FAKE_LINKEDIN_ENDPOINTS = [
  'authorization',
  'accessToken',
  'revoke',
  'userinfo',
  'me',
  'organizationAcls',
  'posts.create',
  'posts.list',
  'comments.create',
  'comments.list',
  'images.initialize',
  'images.upload',
  'images.get',
  'videos.initialize',
  'videos.upload',
  'videos.finalize',
  'videos.get',
  'documents.initialize',
  'documents.upload',
  'documents.get',
  'memberCreatorPostAnalytics',
  'memberFollowersCount',
  'organizationalEntityShareStatistics',
] as const;
export type FakeLinkedInEndpoint = (typeof FAKE_LINKEDIN_ENDPOINTS)[number];

/** What tests queue per endpoint (../shared/failure-injection.ts). */
export type FakeFailure = QueuedFailure;

/** One request as the fake saw it, for tests that check what was sent. */
export interface SeenRequest {
  endpoint: FakeLinkedInEndpoint | 'unknown';
  method: string;
  path: string;
  /** The query string as sent (`?q=entity&entity=(share:urn%3A…)…`), empty when none. */
  query: string;
  linkedInVersion?: string;
  restliProtocolVersion?: string;
}

export class FakeLinkedInControlState extends FailureQueues<FakeLinkedInEndpoint, FakeFailure> {
  readonly seen: SeenRequest[] = [];
  /** Status checks answered PROCESSING before a new upload of this kind is done processing. */
  readonly processingChecks: Record<FakeMediaKind, number>;
  /** The next uploads of these kinds end PROCESSING_FAILED. */
  readonly failProcessing: Record<FakeMediaKind, number> = { image: 0, video: 0, document: 0 };

  constructor(processingChecks: Record<FakeMediaKind, number>) {
    super();
    this.processingChecks = { ...processingChecks };
  }
}

/** What tests drive and read; nothing here is reachable over HTTP. */
export interface FakeLinkedInControl {
  /** The next `times` calls of `endpoint` fail this way (in order, after any already queued). */
  failNext(endpoint: FakeLinkedInEndpoint, failure: FakeFailure, times?: number): void;
  clearFailures(): void;
  /** How many status checks answer PROCESSING before new uploads of this kind are done. */
  setProcessingChecks(kind: FakeMediaKind, checks: number): void;
  /** The next `times` uploads of this kind end PROCESSING_FAILED. */
  failProcessing(kind: FakeMediaKind, times?: number): void;
  addMember(member: FakeMember): void;
  grantRole(acl: FakeAcl): void;
  /** Adds scopes to an issued access token (an app LinkedIn approved for more than it asked). */
  addScopes(accessToken: string, scopes: string[]): void;
  /** Makes an issued access token expired now. */
  expireAccessToken(accessToken: string): void;
  /**
   * Issues an access token directly, as if the member had consented to `clientId`'s app (the
   * first app by default).
   */
  issueToken(member: string, scopes: string[], clientId?: string): string;
  posts(): FakePost[];
  /** The comments made, oldest first (whatever the scopes: the look-up reads them over HTTP). */
  comments(): FakeComment[];
  /** The member deletes the post at LinkedIn: its reads answer 404 from now on. */
  deletePost(urn: string): void;
  /** Sets a member's follower count (default: grows one an hour from the fake's start). */
  setFollowers(member: string, followers: number): void;
  uploads(): FakeUpload[];
  upload(urn: string): FakeUpload | undefined;
  accessTokens(): {
    accessToken: string;
    clientId: string;
    member: string;
    scopes: string[];
    revoked: boolean;
    expiresAt: number;
  }[];
  refreshTokens(): {
    refreshToken: string;
    clientId: string;
    member: string;
    revoked: boolean;
    expiresAt: number;
  }[];
  requests(): SeenRequest[];
}

export function makeControl(
  state: FakeLinkedInControlState,
  store: FakeLinkedInStore,
  settings: { accessTokenSeconds: number; now: () => number },
  defaultClientId: string,
): FakeLinkedInControl {
  return {
    failNext: (endpoint, failure, times = 1) => state.inject(endpoint, failure, times),
    clearFailures: () => state.clearFailures(),
    setProcessingChecks: (kind, checks) => {
      state.processingChecks[kind] = checks;
    },
    failProcessing: (kind, times = 1) => {
      state.failProcessing[kind] += times;
    },
    addMember: (member) => {
      store.members.set(member.sub, member);
    },
    grantRole: (acl) => {
      store.acls.push(acl);
    },
    addScopes: (accessToken, scopes) => {
      const token = store.accessTokens.get(accessToken);
      if (token) token.scopes = [...new Set([...token.scopes, ...scopes])];
    },
    expireAccessToken: (accessToken) => {
      const token = store.accessTokens.get(accessToken);
      if (token) token.expiresAt = settings.now() - 1;
    },
    issueToken: (member, scopes, clientId = defaultClientId) => {
      const accessToken = store.secret(48);
      store.accessTokens.set(accessToken, {
        accessToken,
        clientId,
        member,
        scopes,
        expiresAt: settings.now() + settings.accessTokenSeconds * 1000,
        revoked: false,
      });
      return accessToken;
    },
    posts: () => store.posts.map((post) => ({ ...post })),
    comments: () => store.comments.map((comment) => ({ ...comment })),
    deletePost: (urn) => {
      const post = store.posts.find((candidate) => candidate.id === urn);
      if (post) post.deletedAt = settings.now();
    },
    setFollowers: (member, followers) => {
      store.followers.set(member, followers);
    },
    uploads: () => [...store.uploads.values()],
    upload: (urn) => store.uploads.get(urn),
    accessTokens: () =>
      [...store.accessTokens.values()].map(
        ({ accessToken, clientId, member, scopes, revoked, expiresAt }) => ({
          accessToken,
          clientId,
          member,
          scopes,
          revoked,
          expiresAt,
        }),
      ),
    refreshTokens: () =>
      [...store.refreshTokens.values()].map(({ refreshToken, clientId, member, revoked, expiresAt }) => ({
        refreshToken,
        clientId,
        member,
        revoked,
        expiresAt,
      })),
    requests: () => [...state.seen],
  };
}
