/**
 * The service's DynamoDB tables, described once. CDK (infra/) and the local host
 * (infra/local/) both build their tables from these definitions, so the two cannot drift.
 */
export interface KeyAttribute {
  name: string;
  type: 'S' | 'N';
}

export interface IndexDefinition {
  indexName: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
}

export interface TableDefinition {
  /** Stable id: CDK construct id, local table name suffix. */
  id: string;
  /** Its member in TableNames. */
  name: keyof TableNames;
  /** Environment variable that carries the deployed table's name to functions. */
  envVar: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  globalSecondaryIndexes: IndexDefinition[];
  timeToLiveAttribute?: string;
  /** The outbox reads this table's changes (docs/architecture.md#data-flow). */
  stream?: 'NEW_AND_OLD_IMAGES';
}

/** Tenancy, accounts and (later) posts, media and webhooks: one table, keyed by tenant. */
export const MAIN_TABLE: TableDefinition = {
  id: 'main',
  name: 'main',
  envVar: 'TABLE_MAIN',
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  globalSecondaryIndexes: [
    {
      indexName: 'gsi1',
      partitionKey: { name: 'gsi1pk', type: 'S' },
      sortKey: { name: 'gsi1sk', type: 'S' },
    },
    {
      // Sparse: only posts waiting on time (scheduled, queued, publishing), across tenants, by when
      // they are due. The reconciler reads it to find what is overdue.
      indexName: 'gsi2',
      partitionKey: { name: 'gsi2pk', type: 'S' },
      sortKey: { name: 'gsi2sk', type: 'S' },
    },
    {
      // Sparse: only posts with an externalId, by it within their workspace (a calendar's posts).
      indexName: 'gsi3',
      partitionKey: { name: 'gsi3pk', type: 'S' },
      sortKey: { name: 'gsi3sk', type: 'S' },
    },
  ],
  timeToLiveAttribute: 'expiresAt',
  stream: 'NEW_AND_OLD_IMAGES',
};

/**
 * Per-tenant, per-minute request counters. Kept apart from the main table so that their constant
 * churn never reaches the main table's stream (the outbox).
 */
export const RATE_LIMITS_TABLE: TableDefinition = {
  id: 'rate-limits',
  name: 'rateLimits',
  envVar: 'TABLE_RATE_LIMITS',
  partitionKey: { name: 'pk', type: 'S' },
  globalSecondaryIndexes: [],
  timeToLiveAttribute: 'expiresAt',
};

/**
 * Idempotency records of post creation: written in the same transaction as the post, replayed for
 * 24 hours, then deleted by TTL. Apart from the main table so the outbox stream never sees them.
 */
export const IDEMPOTENCY_TABLE: TableDefinition = {
  id: 'idempotency',
  name: 'idempotency',
  envVar: 'TABLE_IDEMPOTENCY',
  partitionKey: { name: 'pk', type: 'S' },
  globalSecondaryIndexes: [],
  timeToLiveAttribute: 'expiresAt',
};

export const TABLES = [MAIN_TABLE, RATE_LIMITS_TABLE, IDEMPOTENCY_TABLE] as const;

/** Table names as the running code sees them. */
export interface TableNames {
  main: string;
  rateLimits: string;
  idempotency: string;
}

/** Names used where we choose them ourselves: the local host and tests (a prefix keeps runs apart). */
export function localTableNames(prefix: string): TableNames {
  return Object.fromEntries(
    TABLES.map((table) => [table.name, `${prefix}${table.id}`]),
  ) as unknown as TableNames;
}
