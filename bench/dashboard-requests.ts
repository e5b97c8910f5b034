import { marshall } from '@aws-sdk/util-dynamodb';
import { keys, toItem } from '../shared/adapters/dynamodb/keys.js';
import { SESSION_COOKIE } from '../shared/dashboard/cookies.js';
import type { Tenant } from '../shared/domain/tenancy.js';
import type { DashboardSession, User } from '../shared/domain/users.js';
import { newSecretToken, sha256Hex } from '../shared/services/users/secrets.js';

/**
 * What bench/bundles.ts holds in the stub's DynamoDB for the dashboard's signed-in page: one
 * tenant, its owner and a live session (bench/cold-start-child.ts finds them by key), so a request
 * with SESSION_COOKIES is signed in.
 */

const SESSION_TOKEN = newSecretToken();
const NOW = new Date();

const TENANT: Tenant = {
  tenantId: 'tenant_bench',
  name: 'bench',
  planTier: 'pro',
  planStatus: 'active',
  createdAt: NOW.toISOString(),
};
const OWNER: User = {
  userId: 'usr_bench',
  tenantId: TENANT.tenantId,
  email: 'owner@example.com',
  role: 'owner',
  workspaceIds: [],
  sessionEpoch: 0,
  createdAt: NOW.toISOString(),
};
const SESSION: DashboardSession = {
  sessionHash: sha256Hex(SESSION_TOKEN),
  tenantId: TENANT.tenantId,
  userId: OWNER.userId,
  csrfToken: newSecretToken(),
  sessionEpoch: OWNER.sessionEpoch,
  createdAt: NOW.toISOString(),
  expiresAt: new Date(NOW.getTime() + 60 * 60 * 1000).toISOString(),
};

/** The stub's DynamoDB items (marshalled), for the child's DYNAMO_ITEMS_VARIABLE. */
export const DASHBOARD_ITEMS = [
  toItem('tenant', keys.tenant(TENANT.tenantId), TENANT),
  toItem('user', keys.user(TENANT.tenantId, OWNER.userId), OWNER),
  toItem('session', keys.session(SESSION.sessionHash), SESSION),
].map((item) => marshall(item, { removeUndefinedValues: true }));

/** The browser's cookies of that session (API Gateway's `event.cookies`). */
export const SESSION_COOKIES = [`${SESSION_COOKIE}=${SESSION_TOKEN}`];
