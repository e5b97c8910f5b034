import { randomBytes } from 'node:crypto';
import type { FakeAuthorizationCode as FakeCode, FakeUserToken as FakeToken } from '../shared/user-tokens.js';

/** A Threads profile the fake knows. */
export interface FakeThreadsUser {
  /** The Threads user id (`/me`'s id; `/{threads-user-id}/threads` publishes under it). */
  userId: string;
  username: string;
  name: string;
  profilePictureUrl?: string;
}

export type { FakeCode, FakeToken };

export type FakeContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
export type FakeMediaType = 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';

export interface FakeContainer {
  id: string;
  owner: string;
  type: FakeMediaType;
  isCarouselItem: boolean;
  /** Every parameter as sent (text, alt_text, reply_to_id, reply_control, link_attachment…). */
  params: Record<string, string>;
  children: string[];
  /** Status checks still answered IN_PROGRESS. */
  pollsLeft: number;
  /** Ends ERROR with this error_message once processed (FAILED_DOWNLOADING_VIDEO…). */
  failWith?: string;
  status: FakeContainerStatus;
  createdAt: number;
  /** The post it became, once published. */
  mediaId?: string;
  /** What the fake fetched from the media URL. */
  fetched?: { contentType: string; bytes: number };
}

export interface FakeThreadsPost {
  id: string;
  owner: string;
  containerId: string;
  mediaType: 'TEXT_POST' | 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  text?: string;
  timestamp: number;
  shortcode: string;
  permalink: string;
  /** The post it replies to (a reply is listed under /replies, not /threads). */
  repliedTo?: string;
  quotedPostId?: string;
  linkAttachment?: string;
  replyControl: string;
  topicTag?: string;
  children: string[];
}

export class FakeThreadsStore {
  readonly users = new Map<string, FakeThreadsUser>();
  readonly tokens = new Map<string, FakeToken>();
  readonly codes = new Map<string, FakeCode>();
  readonly containers = new Map<string, FakeContainer>();
  /** Newest last. */
  readonly posts: FakeThreadsPost[] = [];
  private nextId = 18_000_000_000_000_000n;

  secret(bytes: number): string {
    return randomBytes(bytes).toString('base64url');
  }

  /** Numeric ids, as Threads'. */
  id(): string {
    this.nextId += 1n;
    return this.nextId.toString();
  }
}
