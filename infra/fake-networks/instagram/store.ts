import { randomBytes } from 'node:crypto';
import type { FakeAuthorizationCode as FakeCode, FakeUserToken as FakeToken } from '../shared/user-tokens.js';

/** An Instagram professional account the fake knows. */
export interface FakeInstagramUser {
  /** The professional account's id (`/me`'s user_id; `/{ig-user-id}/media` publishes under it). */
  userId: string;
  username: string;
  name: string;
  profilePictureUrl?: string;
  /** Followers when the fake starts (default 1000); `/me` adds two an hour of the fake's clock. */
  followers?: number;
  /** Accounts it follows (default 150). */
  follows?: number;
}

export type { FakeCode, FakeToken };

export type FakeContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';
export type FakeContainerType = 'IMAGE' | 'VIDEO' | 'REELS' | 'STORIES' | 'CAROUSEL';

export interface FakeContainer {
  id: string;
  owner: string;
  type: FakeContainerType;
  isCarouselItem: boolean;
  /** Every parameter as sent (caption, user_tags, alt_text, share_to_feed…). */
  params: Record<string, string>;
  children: string[];
  /** Status checks still answered IN_PROGRESS. */
  pollsLeft: number;
  /** Ends ERROR with this subcode once processed. */
  failWith?: number;
  status: FakeContainerStatus;
  createdAt: number;
  /** The media it became, once published. */
  mediaId?: string;
  /** What the fake fetched from the media URL. */
  fetched?: { contentType: string; bytes: number };
}

export interface FakeMedia {
  id: string;
  owner: string;
  containerId: string;
  mediaType: 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  productType: 'FEED' | 'REELS' | 'STORY';
  caption?: string;
  timestamp: number;
  permalink: string;
  children: string[];
  /** A trial reel's `trial_params`, as sent. */
  trialParams?: string;
  /** A reel's cover, as sent (it wins over thumb_offset). */
  coverUrl?: string;
  /** True once comments are turned off on it (`comment_enabled=false`). */
  commentsDisabled?: boolean;
}

/** A comment on a media item, as `/{ig-media-id}/comments` lists it. */
export interface FakeComment {
  id: string;
  mediaId: string;
  /** The commenting account's id and username. */
  userId: string;
  username: string;
  text: string;
  timestamp: number;
}

export class FakeInstagramStore {
  readonly users = new Map<string, FakeInstagramUser>();
  readonly tokens = new Map<string, FakeToken>();
  readonly codes = new Map<string, FakeCode>();
  readonly containers = new Map<string, FakeContainer>();
  /** Newest last. */
  readonly media: FakeMedia[] = [];
  /** Oldest first, as the comments edge lists them. */
  readonly comments: FakeComment[] = [];
  /** The fake's clock when it started: what the follower counts grow from. */
  startedAt = 0;
  private nextId = 17_900_000_000_000_000n;

  secret(bytes: number): string {
    return randomBytes(bytes).toString('base64url');
  }

  /** Numeric ids, as Instagram's. */
  id(): string {
    this.nextId += 1n;
    return this.nextId.toString();
  }
}
