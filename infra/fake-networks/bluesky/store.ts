import { randomBytes } from 'node:crypto';

export interface FakeBlueskyUser {
  did: string;
  handle: string;
  displayName: string;
  /** Taken down: every write answers 400 AccountTakedown. */
  takenDown?: boolean;
  /** The video service's daily allowance; 0: getUploadLimits answers canUpload false. */
  videosLeftToday?: number;
}

export interface FakeBlob {
  did: string;
  cid: string;
  mimeType: string;
  size: number;
  /** Epoch ms of the upload: a blob no record references is deleted after a while. */
  uploadedAt: number;
  referenced?: boolean;
}

export interface FakeRecord {
  uri: string;
  cid: string;
  did: string;
  rkey: string;
  value: Record<string, unknown>;
}

export interface FakeSession {
  did: string;
  scope: string;
  /** The DPoP key's thumbprint the tokens are bound to. */
  jkt: string;
  accessToken: string;
  accessExpiresAt: number;
  refreshToken: string;
  /** Refresh tokens are single-use: a used one answers invalid_grant. */
  refreshUsed: boolean;
}

export interface FakePushed {
  params: URLSearchParams;
  jkt: string;
  expiresAt: number;
}

export interface FakeCode {
  did: string;
  params: URLSearchParams;
  jkt: string;
  expiresAt: number;
  used: boolean;
}

export interface FakeVideoJob {
  jobId: string;
  did: string;
  blob: FakeBlob;
  pollsLeft: number;
  /** Set to fail the job with this failureCode. */
  failureCode?: string;
}

/** Everything the fake holds: accounts, OAuth state, repositories, blobs, video jobs. */
export class FakeBlueskyStore {
  readonly users = new Map<string, FakeBlueskyUser>();
  readonly pushed = new Map<string, FakePushed>();
  readonly codes = new Map<string, FakeCode>();
  readonly sessions: FakeSession[] = [];
  readonly usedJtis = new Set<string>();
  readonly blobs = new Map<string, FakeBlob>();
  readonly records = new Map<string, FakeRecord>();
  /** Every createRecord that took effect, in order. */
  readonly created: FakeRecord[] = [];
  readonly serviceTokens = new Map<string, { did: string; aud: string; lxm: string; expiresAt: number }>();
  readonly jobs = new Map<string, FakeVideoJob>();
  /** The counts a post view shows (likeCount…), as a test set them; absent: zeros. */
  readonly counts = new Map<string, Record<string, number>>();
  /** Write points spent per DID: [epoch ms, points]. */
  readonly writes = new Map<string, { at: number; points: number }[]>();
  /** The current DPoP nonces: one for the authorization server, one for the PDS. */
  nonces = { authServer: secret(16), pds: secret(16) };

  secret(bytes: number): string {
    return secret(bytes);
  }

  sessionByAccess(token: string): FakeSession | undefined {
    return this.sessions.find((session) => session.accessToken === token);
  }

  sessionByRefresh(token: string): FakeSession | undefined {
    return this.sessions.find((session) => session.refreshToken === token);
  }
}

function secret(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}
