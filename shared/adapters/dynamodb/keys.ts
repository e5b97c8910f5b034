import type { Post } from '../../domain/posts.js';
import type { Account } from '../../domain/tenancy.js';

/** Ends an externalId in a GSI3 sort key: no externalId holds a space (domain/external-id.ts). */
export const EXTERNAL_ID_END = ' ';

/**
 * Key layout of the main table. Every item that belongs to a tenant has the tenant in its
 * partition key, so no query can reach across tenants. docs/data-model.md explains each pattern.
 */
export const keys = {
  tenant: (tenantId: string) => ({ pk: `TENANT#${tenantId}`, sk: 'TENANT' }),
  workspace: (tenantId: string, workspaceId: string) => ({
    pk: `TENANT#${tenantId}`,
    sk: `WORKSPACE#${workspaceId}`,
  }),
  workspacePrefix: 'WORKSPACE#',
  agent: (tenantId: string, agentId: string) => ({ pk: `TENANT#${tenantId}`, sk: `AGENT#${agentId}` }),
  apiKey: (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** GSI1 entry of an API key, to find it by id within its tenant (revocation). */
  apiKeyById: (tenantId: string, keyId: string) => ({
    gsi1pk: `TENANT#${tenantId}#KEYS`,
    gsi1sk: `KEY#${keyId}`,
  }),
  workspacePartition: (tenantId: string, workspaceId: string) => `TENANT#${tenantId}#WS#${workspaceId}`,
  account: (tenantId: string, workspaceId: string, accountId: string) => ({
    pk: keys.workspacePartition(tenantId, workspaceId),
    sk: `ACCOUNT#${accountId}`,
  }),
  accountPrefix: 'ACCOUNT#',
  /**
   * Which account of the workspace holds a network user: one item per (platform, network user),
   * written in the same transaction as the account, so two connects of one user cannot make two
   * accounts, and a reconnect finds the old id with a consistent read.
   */
  accountNetworkUser: (tenantId: string, workspaceId: string, platform: string, networkUserId: string) => ({
    pk: keys.workspacePartition(tenantId, workspaceId),
    sk: `NETUSER#${platform}#${networkUserId}`,
  }),
  /**
   * GSI2 entry of a connected real-network account whose access token expires: one partition
   * across tenants, by expiry, for the daily refresh sweep. None for sandbox and disconnected
   * accounts, or a token without a known expiry (the index holds only the sweep's candidates).
   */
  accountTokenExpiry: (
    account: Pick<Account, 'accountId' | 'status' | 'sandbox' | 'tokenExpiresAt' | 'encryptedTokens'>,
  ): { gsi2pk: string; gsi2sk: string } | Record<string, never> => {
    if (
      account.sandbox ||
      account.status !== 'connected' ||
      !account.tokenExpiresAt ||
      !account.encryptedTokens
    )
      return {};
    return {
      gsi2pk: TOKEN_EXPIRY_PARTITION,
      gsi2sk: tokenExpiryKey(account.tokenExpiresAt, account.accountId),
    };
  },
  /** A pending OAuth connect, keyed by the SHA-256 of its state: the table never holds the state. */
  oauthState: (stateHash: string) => ({ pk: `OAUTHSTATE#${stateHash}`, sk: 'OAUTHSTATE' }),
  post: (tenantId: string, workspaceId: string, postId: string) => ({
    pk: keys.workspacePartition(tenantId, workspaceId),
    sk: `POST#${postId}`,
  }),
  postPrefix: 'POST#',
  /**
   * GSI1 entry of a post, by status: scheduled posts sort by scheduledAt (the collision check and
   * the scheduled list), every other status by creation (post ids are ULIDs, so they sort by time).
   */
  postByStatus: (post: {
    tenantId: string;
    workspaceId: string;
    postId: string;
    status: string;
    scheduledAt?: string;
  }) => ({
    gsi1pk: `${keys.workspacePartition(post.tenantId, post.workspaceId)}#STATUS#${post.status}`,
    gsi1sk:
      post.status === 'scheduled' && post.scheduledAt ? `${post.scheduledAt}#${post.postId}` : post.postId,
  }),
  /**
   * GSI3 entry of a post the caller named (externalId): sparse, by externalId within the workspace,
   * so a calendar's posts are read by prefix with a few queries. A space ends the externalId (it
   * holds none, and sorts before every character it may hold), so an exact match is a prefix too.
   */
  postByExternalId: (
    post: Pick<Post, 'tenantId' | 'workspaceId' | 'postId' | 'externalId'>,
  ): { gsi3pk: string; gsi3sk: string } | Record<string, never> =>
    post.externalId
      ? {
          gsi3pk: keys.postsByExternalId(keys.workspacePartition(post.tenantId, post.workspaceId)),
          gsi3sk: `${post.externalId}${EXTERNAL_ID_END}${post.postId}`,
        }
      : {},
  postsByExternalId: (workspacePartition: string) => `${workspacePartition}#EXTERNAL`,
  /** GSI2 entry of a post waiting on time; none for other statuses (the index stays small). */
  postDue: (post: Post): { gsi2pk: string; gsi2sk: string } | Record<string, never> => {
    const due =
      post.status === 'scheduled'
        ? post.scheduledAt
        : post.status === 'queued'
          ? (post.delivery?.nextAttemptAt ?? post.updatedAt)
          : post.status === 'publishing'
            ? post.delivery?.leaseUntil
            : undefined;
    if (!due) return {};
    return { gsi2pk: `DUE#${post.status}#${dueShard(post.postId)}`, gsi2sk: `${due}#${post.postId}` };
  },
  media: (tenantId: string, workspaceId: string, mediaId: string) => ({
    pk: keys.workspacePartition(tenantId, workspaceId),
    sk: `MEDIA#${mediaId}`,
  }),
  idempotency: (tenantId: string, key: string) => ({ pk: `${tenantId}#${key}` }),
  webhook: (tenantId: string, workspaceId: string, webhookId: string) => ({
    pk: keys.workspacePartition(tenantId, workspaceId),
    sk: `WEBHOOK#${webhookId}`,
  }),
  webhookPrefix: 'WEBHOOK#',
  /** How many webhooks the workspace has: changed in the same transaction as each create and delete. */
  webhookCounter: (tenantId: string, workspaceId: string) => ({
    pk: keys.workspacePartition(tenantId, workspaceId),
    sk: 'COUNTER#WEBHOOKS',
  }),
  /** A webhook's deliveries have a partition of their own, so a busy webhook never heats the workspace's. */
  deliveryPartition: (tenantId: string, workspaceId: string, webhookId: string) =>
    `${keys.workspacePartition(tenantId, workspaceId)}#WEBHOOK#${webhookId}`,
  delivery: (tenantId: string, workspaceId: string, webhookId: string, deliveryId: string) => ({
    pk: keys.deliveryPartition(tenantId, workspaceId, webhookId),
    sk: `DELIVERY#${deliveryId}`,
  }),
  deliveryPrefix: 'DELIVERY#',
  /** GSI1 entry of a delivery, by status; delivery ids sort by their event's time. */
  deliveryByStatus: (partition: string, status: string, deliveryId: string) => ({
    gsi1pk: `${partition}#STATUS#${status}`,
    gsi1sk: deliveryId,
  }),
  /** The workspace's event feed: one partition, sorted by event id (time-ordered). */
  feedPartition: (tenantId: string, workspaceId: string) =>
    `${keys.workspacePartition(tenantId, workspaceId)}#EVENTS`,
  feedEvent: (tenantId: string, workspaceId: string, eventId: string) => ({
    pk: keys.feedPartition(tenantId, workspaceId),
    sk: `EVENT#${eventId}`,
  }),
  feedEventPrefix: 'EVENT#',
  /** A dashboard user, in their tenant's partition. */
  user: (tenantId: string, userId: string) => ({ pk: `TENANT#${tenantId}`, sk: `USER#${userId}` }),
  userPrefix: 'USER#',
  /**
   * Which user an email belongs to: written in the same transaction as the user, on condition it
   * is new, so one email is one user across the deployment (sign-in names no tenant).
   */
  userEmail: (email: string) => ({ pk: `USEREMAIL#${email}`, sk: 'USEREMAIL' }),
  /** A dashboard session, keyed by the SHA-256 of its cookie: the table never holds the cookie. */
  session: (sessionHash: string) => ({ pk: `SESSION#${sessionHash}`, sk: 'SESSION' }),
  /** A one-time link's token (set the first password), keyed by its SHA-256. */
  oneTimeToken: (tokenHash: string) => ({ pk: `ONETIMETOKEN#${tokenHash}`, sk: 'ONETIMETOKEN' }),
} as const;

/** The one gsi2 partition of accounts by token expiry (small: one entry per connected account). */
export const TOKEN_EXPIRY_PARTITION = 'TOKENS#EXPIRE';

/** Sorts by the instant whatever the ISO 8601 spelling: always the 24-character UTC form. */
export function tokenExpiryKey(expiresAt: string, accountId: string): string {
  return `${new Date(expiresAt).toISOString()}#${accountId}`;
}

/** Spreads the cross-tenant due index over a few partitions, so no one partition is hot. */
export const DUE_SHARDS = 4;

function dueShard(postId: string): number {
  let sum = 0;
  for (const char of postId) sum = (sum * 31 + char.charCodeAt(0)) >>> 0;
  return sum % DUE_SHARDS;
}

/** Item type tags, so stream consumers and operators can tell items apart. */
export type EntityType =
  | 'tenant'
  | 'workspace'
  | 'agent'
  | 'apiKey'
  | 'account'
  | 'accountNetworkUser'
  | 'oauthState'
  | 'post'
  | 'media'
  | 'webhook'
  | 'webhookCounter'
  | 'webhookDelivery'
  | 'event'
  | 'user'
  | 'userEmail'
  | 'session'
  | 'oneTimeToken';

const KEY_ATTRIBUTES = [
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'entity',
] as const;

/** The stored item for an entity: its own fields, its keys and its type tag. */
export function toItem<T extends object>(entity: EntityType, key: Record<string, string>, value: T) {
  return { ...value, ...key, entity };
}

/** The entity back from an item, without the table's own attributes. */
export function fromItem<T>(item: Record<string, unknown>): T {
  const copy: Record<string, unknown> = { ...item };
  for (const attribute of KEY_ATTRIBUTES) delete copy[attribute];
  return copy as T;
}
