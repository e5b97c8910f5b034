import { createHash, randomBytes } from 'node:crypto';

/** A Google account with a YouTube channel. */
export interface FakeChannel {
  id: string;
  title: string;
  /** `@handle`. */
  customUrl: string;
  thumbnailUrl: string;
  /** Subscribers before any view of the fake's videos (default 1,200). */
  subscribers?: number;
  /** The owner hid the subscriber count: channels.list leaves it out. */
  hiddenSubscriberCount?: boolean;
  /**
   * False: the channel may not set custom thumbnails (not phone-verified), so thumbnails.set answers
   * 403 forbidden. Default: allowed.
   */
  customThumbnails?: boolean;
}

export interface FakeGrant {
  channelId: string;
  scopes: string[];
}

export interface FakeAccessToken extends FakeGrant {
  accessToken: string;
  expiresAt: number;
  revoked: boolean;
}

export interface FakeRefreshToken extends FakeGrant {
  refreshToken: string;
  revoked: boolean;
}

export interface FakeCode extends FakeGrant {
  code: string;
  redirectUri: string;
  codeChallenge?: string;
  /** access_type=offline: the code's exchange issues a refresh token. */
  offline: boolean;
  expiresAt: number;
  used: boolean;
}

/** One resumable upload session and the bytes it holds so far. */
export interface FakeSession {
  uploadId: string;
  channelId: string;
  total: number;
  contentType: string;
  resource: {
    snippet: FakeSnippet;
    status: { privacyStatus: string; selfDeclaredMadeForKids: boolean; publishAt?: string };
  };
  notifySubscribers: boolean;
  received: Buffer[];
  receivedBytes: number;
  /** Set when the last byte arrived. */
  videoId?: string;
}

export interface FakeSnippet {
  title: string;
  description: string;
  tags?: string[];
  categoryId?: string;
}

export type FakeUploadStatus = 'uploaded' | 'processed' | 'failed' | 'rejected' | 'deleted';

export interface FakeVideo {
  id: string;
  channelId: string;
  snippet: FakeSnippet;
  privacyStatus: string;
  madeForKids: boolean;
  notifySubscribers: boolean;
  sha256: string;
  size: number;
  uploadStatus: FakeUploadStatus;
  failureReason?: string;
  rejectionReason?: string;
  /** Status reads still answered `uploaded` / `processing`. */
  processingPollsLeft: number;
  /** What processing ends in. */
  outcome:
    | { uploadStatus: 'processed' }
    | { uploadStatus: 'failed'; failureReason: string }
    | { uploadStatus: 'rejected'; rejectionReason: string };
  uploadedAt: string;
  /** The owner hid the likes: statistics.likeCount is left out. */
  likesHidden?: boolean;
  /** Comments are off: statistics.commentCount is left out, and commentThreads.insert is refused. */
  commentsDisabled?: boolean;
  /** status.publishAt (a private video's scheduled publishing): public from then on. */
  publishAt?: string;
  /** The custom thumbnail thumbnails.set last stored. */
  thumbnail?: { sha256: string; contentType: string; size: number };
}

/** A playlist of a channel, its items in order (a video may be in it twice, as YouTube allows). */
export interface FakePlaylist {
  id: string;
  channelId: string;
  title: string;
  items: { id: string; videoId: string; addedAt: string }[];
}

/** A top-level comment (its thread id is its own id, as YouTube's top-level comments). */
export interface FakeComment {
  id: string;
  videoId: string;
  /** The channel of the video the thread belongs to (snippet.channelId). */
  channelId: string;
  /** The channel that wrote it: the token's. */
  authorChannelId: string;
  textOriginal: string;
  publishedAt: string;
}

/** A caption track of a video (captions.insert), with the file's text. */
export interface FakeCaption {
  id: string;
  videoId: string;
  channelId: string;
  language: string;
  name: string;
  isDraft: boolean;
  /** The media part's Content-Type. */
  contentType: string;
  text: string;
  at: string;
  /** snippet.status: `serving` once processed, `failed` for a file YouTube cannot read. */
  status: 'serving' | 'failed';
  failureReason?: string;
}

export class FakeYouTubeStore {
  readonly channels = new Map<string, FakeChannel>();
  readonly codes = new Map<string, FakeCode>();
  readonly accessTokens = new Map<string, FakeAccessToken>();
  readonly refreshTokens = new Map<string, FakeRefreshToken>();
  readonly sessions = new Map<string, FakeSession>();
  readonly videos: FakeVideo[] = [];
  readonly playlists = new Map<string, FakePlaylist>();
  readonly comments: FakeComment[] = [];
  readonly captions: FakeCaption[] = [];
  /** Quota units used today by the project, and uploads per channel today. */
  unitsUsed = 0;
  readonly uploadsToday = new Map<string, number>();

  secret(bytes: number): string {
    return randomBytes(bytes).toString('base64url');
  }

  videoId(): string {
    return randomBytes(8).toString('base64url').slice(0, 11);
  }

  static sha256(bytes: Buffer): string {
    return createHash('sha256').update(bytes).digest('hex');
  }
}
