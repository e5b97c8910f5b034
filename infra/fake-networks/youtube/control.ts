import { FailureQueues, type QueuedFailure } from '../shared/failure-injection.js';
import type {
  FakeCaption,
  FakeChannel,
  FakeComment,
  FakePlaylist,
  FakeSession,
  FakeVideo,
  FakeYouTubeStore,
} from './store.js';

/** Every route of the fake, by name: failures are injected per endpoint. */
export const FAKE_YOUTUBE_ENDPOINTS = [
  'authorize',
  'token',
  'revoke',
  'channels.list',
  'videos.list',
  'playlistItems.list',
  'playlistItems.insert',
  'commentThreads.list',
  'commentThreads.insert',
  'reports.query',
  'upload.session',
  'upload.put',
  'thumbnails.set',
  'captions.insert',
  'captions.list',
] as const;
export type FakeYouTubeEndpoint = (typeof FAKE_YOUTUBE_ENDPOINTS)[number];

/**
 * What tests queue per endpoint: the shared kinds (../shared/failure-injection.ts), and two for uploads:
 * - `resetAfter`: the call is done (a chunk stored, a session opened), then the connection dropped;
 * - `partial`: for `upload.put` only: this many bytes of the chunk are kept, then the connection
 *   dropped (an interruption mid-chunk).
 */
export type FakeFailure = QueuedFailure | { kind: 'resetAfter' } | { kind: 'partial'; keepBytes: number };

export interface SeenRequest {
  endpoint: FakeYouTubeEndpoint | 'unknown';
  method: string;
  path: string;
  query: Record<string, string>;
  contentRange?: string;
  bodyBytes: number;
}

export interface FakeYouTubeSettings {
  /**
   * Quota units per day for the project (YouTube's default 10,000) and what each call costs: an
   * insert 1,600 (our notes), a list 1, thumbnails.set about 50, playlistItems.insert and
   * commentThreads.insert 50 (their references), captions.insert 400 and captions.list 50 (theirs).
   */
  dailyUnits: number;
  costs: {
    insert: number;
    list: number;
    thumbnail: number;
    playlistInsert: number;
    comment: number;
    captionsInsert: number;
    captionsList: number;
  };
  /** The channel's uploads allowed per day before `uploadLimitExceeded`. */
  uploadsPerDay: number;
  /** Status reads a new video answers as still processing before its outcome (default 1). */
  processingPolls: number;
  accessTokenSeconds: number;
  codeLifetimeMs: number;
  /** Largest file (YouTube: 256 GB; tests make it small). */
  maxFileBytes: number;
  /**
   * The API project has not passed YouTube's audit: every upload is locked private, whatever its
   * privacyStatus asked (videos.insert reference: projects created after 28 July 2020).
   */
  unauditedProject: boolean;
  now: () => number;
}

export class FakeYouTubeControlState extends FailureQueues<FakeYouTubeEndpoint, FakeFailure> {
  readonly seen: SeenRequest[] = [];
  /** How the next uploads' processing ends (in order); default processed. */
  readonly outcomes: FakeVideo['outcome'][] = [];
}

/** What tests drive and read; nothing here is reachable over HTTP. */
export interface FakeYouTubeControl {
  failNext(endpoint: FakeYouTubeEndpoint, failure: FakeFailure, times?: number): void;
  clearFailures(): void;
  /** The next upload's processing fails with this `failureReason` (codec, invalidFile…). */
  failProcessing(failureReason: string): void;
  /** The next upload is rejected with this `rejectionReason` (duplicate, copyright…). */
  rejectNext(rejectionReason: string): void;
  setProcessingPolls(polls: number): void;
  /**
   * A processed video on a channel as if uploaded at `uploadedAt` (default now), without the
   * upload's calls or units: for reading its statistics. Returns its id.
   */
  addVideo(video: FakeVideoSeed): string;
  /** The channel's owner deletes the video (it leaves every listing). */
  deleteVideo(videoId: string): void;
  /** The owner turns a video's comments off (or on again). */
  setCommentsDisabled(videoId: string, disabled: boolean): void;
  /** Whether the channel may set custom thumbnails (a channel not phone-verified may not). */
  setCustomThumbnails(channelId: string, allowed: boolean): void;
  /** A playlist of the channel, empty; returns its id. */
  addPlaylist(channelId: string, title?: string): string;
  playlists(): FakePlaylist[];
  /** Every top-level comment, oldest first. */
  comments(): FakeComment[];
  /** Every caption track, oldest first. */
  captions(): FakeCaption[];
  /** The project's quota: units used today, and a new daily limit. */
  quota(): { used: number; limit: number };
  setQuotaUsed(units: number): void;
  setUploadsPerDay(uploads: number): void;
  /** The project passes (false) or has not passed (true) YouTube's audit. */
  setUnauditedProject(unaudited: boolean): void;
  addChannel(channel: FakeChannel): void;
  /** Issues an access token as if the channel's owner had consented. */
  issueToken(channelId: string, scopes: string[]): string;
  expireAccessToken(accessToken: string): void;
  revokeRefreshToken(refreshToken: string): void;
  accessTokens(): { accessToken: string; channelId: string; scopes: string[]; revoked: boolean }[];
  refreshTokens(): { refreshToken: string; channelId: string; revoked: boolean }[];
  videos(): FakeVideo[];
  sessions(): Pick<FakeSession, 'uploadId' | 'total' | 'receivedBytes' | 'videoId'>[];
  requests(): SeenRequest[];
}

export interface FakeVideoSeed {
  channelId: string;
  /** ISO 8601; default the fake's now. */
  uploadedAt?: string;
  title?: string;
  likesHidden?: boolean;
  commentsDisabled?: boolean;
}

export function makeControl(
  state: FakeYouTubeControlState,
  store: FakeYouTubeStore,
  settings: FakeYouTubeSettings,
): FakeYouTubeControl {
  return {
    failNext: (endpoint, failure, times = 1) => state.inject(endpoint, failure, times),
    clearFailures: () => state.clearFailures(),
    failProcessing: (failureReason) => state.outcomes.push({ uploadStatus: 'failed', failureReason }),
    rejectNext: (rejectionReason) => state.outcomes.push({ uploadStatus: 'rejected', rejectionReason }),
    setProcessingPolls: (polls) => {
      settings.processingPolls = polls;
    },
    addVideo: (seed) => {
      const id = store.videoId();
      store.videos.push({
        id,
        channelId: seed.channelId,
        snippet: { title: seed.title ?? `Video ${store.videos.length + 1}`, description: '' },
        privacyStatus: 'public',
        madeForKids: false,
        notifySubscribers: false,
        sha256: id,
        size: 0,
        uploadStatus: 'processed',
        processingPollsLeft: 0,
        outcome: { uploadStatus: 'processed' },
        uploadedAt: seed.uploadedAt ?? new Date(settings.now()).toISOString(),
        ...(seed.likesHidden && { likesHidden: true }),
        ...(seed.commentsDisabled && { commentsDisabled: true }),
      });
      return id;
    },
    deleteVideo: (videoId) => {
      const video = store.videos.find((item) => item.id === videoId);
      if (video) video.uploadStatus = 'deleted';
    },
    setCommentsDisabled: (videoId, disabled) => {
      const video = store.videos.find((item) => item.id === videoId);
      if (video) video.commentsDisabled = disabled;
    },
    setCustomThumbnails: (channelId, allowed) => {
      const channel = store.channels.get(channelId);
      if (channel) store.channels.set(channelId, { ...channel, customThumbnails: allowed });
    },
    addPlaylist: (channelId, title) => {
      const id = `PL${store.secret(24)}`;
      store.playlists.set(id, {
        id,
        channelId,
        title: title ?? `Playlist ${store.playlists.size + 1}`,
        items: [],
      });
      return id;
    },
    playlists: () =>
      [...store.playlists.values()].map((playlist) => ({ ...playlist, items: [...playlist.items] })),
    comments: () => [...store.comments],
    captions: () => [...store.captions],
    quota: () => ({ used: store.unitsUsed, limit: settings.dailyUnits }),
    setQuotaUsed: (units) => {
      store.unitsUsed = units;
    },
    setUploadsPerDay: (uploads) => {
      settings.uploadsPerDay = uploads;
    },
    setUnauditedProject: (unaudited) => {
      settings.unauditedProject = unaudited;
    },
    addChannel: (channel) => store.channels.set(channel.id, channel),
    issueToken: (channelId, scopes) => {
      const accessToken = store.secret(32);
      store.accessTokens.set(accessToken, {
        accessToken,
        channelId,
        scopes,
        expiresAt: settings.now() + settings.accessTokenSeconds * 1000,
        revoked: false,
      });
      return accessToken;
    },
    expireAccessToken: (accessToken) => {
      const token = store.accessTokens.get(accessToken);
      if (token) token.expiresAt = settings.now() - 1;
    },
    revokeRefreshToken: (refreshToken) => {
      const token = store.refreshTokens.get(refreshToken);
      if (token) token.revoked = true;
    },
    accessTokens: () =>
      [...store.accessTokens.values()].map(({ accessToken, channelId, scopes, revoked }) => ({
        accessToken,
        channelId,
        scopes,
        revoked,
      })),
    refreshTokens: () =>
      [...store.refreshTokens.values()].map(({ refreshToken, channelId, revoked }) => ({
        refreshToken,
        channelId,
        revoked,
      })),
    videos: () => [...store.videos],
    sessions: () =>
      [...store.sessions.values()].map(({ uploadId, total, receivedBytes, videoId }) => ({
        uploadId,
        total,
        receivedBytes,
        ...(videoId && { videoId }),
      })),
    requests: () => [...state.seen],
  };
}
