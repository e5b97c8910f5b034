import { randomBytes } from 'node:crypto';

/** A Page as Meta keeps it, with the tasks its person may do on it. */
export interface FakeFacebookPage {
  pageId: string;
  name: string;
  username?: string;
  /** The person's tasks on the Page (CREATE_CONTENT lets them publish as it). */
  tasks: string[];
  pictureUrl?: string;
  /** `followers_count`. */
  followers?: number;
}

/** What people did with a post or video (its engagement fields). */
export interface FakeEngagement {
  reactions: number;
  comments: number;
  /** Feed posts only; Meta leaves the field out at 0. */
  shares: number;
}

/** A person who can sign in at the consent page, and the Pages they manage. */
export interface FakeFacebookUser {
  userId: string;
  name: string;
  pages: FakeFacebookPage[];
}

export interface FakeToken {
  token: string;
  kind: 'short' | 'long' | 'page';
  userId: string;
  /** A Page token's Page. */
  pageId?: string;
  /** The Pages the person picked in the dialog (what /me/accounts lists). */
  pageIds: string[];
  scopes: string[];
  issuedAt: number;
  /** Undefined: no expiry (a Page token from a long-lived user token). */
  expiresAt?: number;
  revoked: boolean;
}

export interface FakeCode {
  code: string;
  userId: string;
  pageIds: string[];
  scopes: string[];
  redirectUri: string;
  expiresAt: number;
  used: boolean;
}

/** A published post of a Page (feed, photo or video story). */
export interface FakePost {
  id: string;
  pageId: string;
  kind: 'status' | 'link' | 'photo' | 'photos' | 'video' | 'reel';
  message: string;
  link?: string;
  /** The photos a photo or multi-photo post shows. */
  photoIds: string[];
  videoId?: string;
  createdTime: number;
}

export interface FakePhoto {
  id: string;
  pageId: string;
  published: boolean;
  /** An unpublished photo attached to a post: it cannot be attached again (1366051). */
  attachedTo?: string;
  altText?: string;
  fetched: { contentType: string; bytes: number };
  url: string;
}

export type PhaseStatus = 'not_started' | 'in_progress' | 'complete' | 'error';

export interface FakeVideo {
  id: string;
  pageId: string;
  kind: 'video' | 'reel';
  description: string;
  title?: string;
  createdTime: number;
  uploading: PhaseStatus;
  processing: PhaseStatus;
  publishing: PhaseStatus;
  /** Status reads left before processing completes. */
  pollsLeft: number;
  /** Set when the processing ends in error (the fake's control says which videos fail). */
  failProcessing: boolean;
  fetched?: { contentType: string; bytes: number; durationSeconds?: number; width?: number; height?: number };
  /** The post it becomes once published. */
  postId?: string;
  /** A reel finished as DRAFT or SCHEDULED: processed, not published. */
  draft?: boolean;
}

/** A comment on a post or video, as `/{object-id}/comments` lists it. */
export interface FakeComment {
  id: string;
  /** The post or video commented on. */
  objectId: string;
  /** The commenter: the Page's id for the Page's own comments. */
  fromId: string;
  message: string;
  attachmentUrl?: string;
  createdTime: number;
}

export class FakeFacebookStore {
  readonly users = new Map<string, FakeFacebookUser>();
  readonly codes = new Map<string, FakeCode>();
  readonly tokens = new Map<string, FakeToken>();
  readonly posts: FakePost[] = [];
  readonly photos = new Map<string, FakePhoto>();
  readonly videos = new Map<string, FakeVideo>();
  /** Oldest first. */
  readonly comments: FakeComment[] = [];
  /** Engagement by post or video id (none: nothing yet). */
  readonly engagement = new Map<string, FakeEngagement>();
  /** Every URL the fake fetched media from. */
  readonly fetchedUrls: string[] = [];
  private nextId = 1;

  secret(bytes: number): string {
    return randomBytes(bytes).toString('base64url');
  }

  /** A numeric Graph id, unique in the fake. */
  id(prefix = '1'): string {
    this.nextId += 1;
    return `${prefix}${String(Date.now()).slice(-8)}${String(this.nextId).padStart(6, '0')}`;
  }

  pageOf(pageId: string): { user: FakeFacebookUser; page: FakeFacebookPage } | undefined {
    for (const user of this.users.values()) {
      const page = user.pages.find((candidate) => candidate.pageId === pageId);
      if (page) return { user, page };
    }
    return undefined;
  }

  /** The Page's posts, newest first. */
  postsOf(pageId: string): FakePost[] {
    return this.posts.filter((post) => post.pageId === pageId).sort((a, b) => b.createdTime - a.createdTime);
  }
}
