import type { Operation } from '../http/operation.js';
import { connectAccount } from './accounts/connect-account.js';
import { disconnectAccount } from './accounts/disconnect-account.js';
import { getAccount } from './accounts/get-account.js';
import { getAccountMetrics } from './accounts/get-account-metrics.js';
import { listAccounts } from './accounts/list-accounts.js';
import { oauthCallback } from './accounts/oauth-callback.js';
import { oauthClientJwks, oauthClientMetadata } from './accounts/oauth-client-metadata.js';
import { readEvents } from './events/read-events.js';
import { confirmMedia } from './media/confirm-media.js';
import { deleteMedia, deleteMediaShort } from './media/delete-media.js';
import { importMedia } from './media/import-media.js';
import { getMedia, listMedia } from './media/read-media.js';
import { createUploadUrl } from './media/upload-url.js';
import { makeGetOpenApi } from './meta/get-openapi.js';
import { listNetworks } from './meta/list-networks.js';
import { cancelPost } from './posts/cancel-post.js';
import { createPost } from './posts/create-post.js';
import { approvePost, rejectPost } from './posts/decide-approval.js';
import { getPost } from './posts/get-post.js';
import { getPostMetrics } from './posts/get-post-metrics.js';
import { listPosts } from './posts/list-posts.js';
import { refreshPostMetrics } from './posts/refresh-post-metrics.js';
import { updatePost } from './posts/update-post.js';
import { validatePost } from './posts/validate-post.js';
import { createWebhook } from './webhooks/create-webhook.js';
import { deleteWebhook, deleteWebhookShort } from './webhooks/delete-webhook.js';
import { listDeliveries, listDeliveriesShort } from './webhooks/list-deliveries.js';
import { getWebhook, listWebhooks } from './webhooks/read-webhooks.js';
import { retryDelivery } from './webhooks/retry-delivery.js';
import { testWebhook } from './webhooks/test-webhook.js';
import { listWorkspaces } from './workspaces/list-workspaces.js';

/**
 * Every REST endpoint of the service. CDK makes a function and a route per entry, the local host
 * mounts them, the OpenAPI document and the tests walk this list. Adding an endpoint is adding it here.
 */
export const operations: readonly Operation[] = [
  listWorkspaces,
  listNetworks,
  listAccounts,
  getAccount,
  getAccountMetrics,
  connectAccount,
  oauthCallback,
  oauthClientMetadata,
  oauthClientJwks,
  disconnectAccount,
  createPost,
  validatePost,
  getPost,
  getPostMetrics,
  refreshPostMetrics,
  listPosts,
  updatePost,
  cancelPost,
  approvePost,
  rejectPost,
  createUploadUrl,
  confirmMedia,
  importMedia,
  getMedia,
  listMedia,
  deleteMedia,
  deleteMediaShort,
  createWebhook,
  listWebhooks,
  getWebhook,
  deleteWebhook,
  deleteWebhookShort,
  listDeliveries,
  listDeliveriesShort,
  retryDelivery,
  testWebhook,
  readEvents,
  makeGetOpenApi(() => operations),
];

export function operationById(id: string): Operation {
  const operation = operations.find((candidate) => candidate.id === id);
  if (!operation) throw new Error(`Unknown operation "${id}".`);
  return operation;
}
