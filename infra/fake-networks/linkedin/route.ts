import type { IncomingHttpHeaders } from 'node:http';
import type { FakeLinkedInControlState } from './control.js';
import type { Reply } from './http.js';
import type { FakeAccessToken, FakeLinkedInStore, FakeMediaKind, FakeMember } from './store.js';

/**
 * The products a LinkedIn developer app can hold, and the scopes each grants it (the developer
 * portal's Products tab, then the Auth tab's "OAuth 2.0 scopes"): Sign In with LinkedIn using
 * OpenID Connect, Share on LinkedIn, and the Community Management API, which must be the only
 * product on its app (the portal refuses it beside another).
 */
export const FAKE_LINKEDIN_PRODUCTS = {
  SIGN_IN_WITH_LINKEDIN_OPENID_CONNECT: ['openid', 'profile', 'email'],
  SHARE_ON_LINKEDIN: ['w_member_social'],
  COMMUNITY_MANAGEMENT_API: [
    'r_basicprofile',
    'w_member_social',
    'w_organization_social',
    'r_organization_social',
    'rw_organization_admin',
    // The member's own analytics (Member Post Statistics, Member Follower Statistics).
    'r_member_postAnalytics',
    'r_member_profileAnalytics',
    // The Comments API's on current versions; r_member_social_feed is restricted, not granted.
    'w_member_social_feed',
    'w_organization_social_feed',
    'r_organization_social_feed',
  ],
} as const satisfies Record<string, readonly string[]>;
export type FakeLinkedInProduct = keyof typeof FAKE_LINKEDIN_PRODUCTS;

/** One of the fake's registered apps (a LinkedIn developer app). */
export interface FakeLinkedInApp {
  clientId: string;
  clientSecret: string;
  products: readonly FakeLinkedInProduct[];
  /** Authorized redirect URLs (exact match); undefined accepts any absolute http(s) URL. */
  redirectUris?: readonly string[];
  /** The scopes the app's products grant it; an authorization naming another fails whole. */
  scopes: readonly string[];
  /** Whether LinkedIn approved the app for programmatic refresh tokens (linkedin.md §6). */
  issueRefreshTokens: boolean;
}

export interface FakeLinkedInSettings {
  /** Access tokens live 60 days, refresh tokens 365 (linkedin.md §6). */
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** Authorization codes: about 30 minutes. */
  codeLifetimeMs: number;
  /** `LinkedIn-Version` months the fake serves; others are sunset (426). */
  activeVersions: ReadonlySet<string>;
  /** Size of a video upload part (LinkedIn: 4 MiB); tests make it small. */
  videoPartBytes: number;
  /** Largest file per kind. */
  maxBytes: Readonly<Record<FakeMediaKind, number>>;
  /** Longest published commentary, in characters. */
  maxCommentary: number;
  /** Longest published comment, in characters. */
  maxComment: number;
  /** Analytics reads a member may make a UTC day, each finder counted apart; then 429. */
  metricsDailyLimit: number;
  /** Posts a Page statistics request may name (LinkedIn documents none; the connector sends at most 20). */
  pagePostsPerRequest: number;
  now: () => number;
}

export interface RouteContext {
  store: FakeLinkedInStore;
  control: FakeLinkedInControlState;
  /** Every app the fake knows, by client id. */
  apps: ReadonlyMap<string, FakeLinkedInApp>;
  settings: FakeLinkedInSettings;
  /** The fake's own address: upload URLs and links point at it. */
  baseUrl: string;
  url: URL;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An API route's context once the bearer token was checked. */
export interface ApiContext extends RouteContext {
  token: FakeAccessToken;
  member: FakeMember;
  /** `urn:li:person:{sub}` of the token's member. */
  memberUrn: string;
}

export type Handler<C> = (context: C) => Reply | Promise<Reply>;

export function personUrn(sub: string): string {
  return `urn:li:person:${sub}`;
}

export function hasScope(token: FakeAccessToken, ...scopes: string[]): boolean {
  return scopes.some((scope) => token.scopes.includes(scope));
}

/** Roles that may post as a Page, or own its media. */
export const PAGE_POSTING_ROLES = [
  'ADMINISTRATOR',
  'DIRECT_SPONSORED_CONTENT_POSTER',
  'CONTENT_ADMINISTRATOR',
];

/** Whether the token may act for `urn` (itself, or a Page it has a posting role on, with the Page scope). */
export function mayActAs(context: ApiContext, urn: string, pageScope = 'w_organization_social'): boolean {
  if (urn.startsWith('urn:li:person:'))
    return urn === context.memberUrn && hasScope(context.token, 'w_member_social');
  if (!urn.startsWith('urn:li:organization:')) return false;
  return (
    hasScope(context.token, pageScope) &&
    context.store.rolesOn(context.member.sub, urn).some((role) => PAGE_POSTING_ROLES.includes(role))
  );
}
