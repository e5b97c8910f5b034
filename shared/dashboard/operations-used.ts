/**
 * Every API operation the dashboard runs, by id: through `callOperation` (every change, and most
 * reads), or as the use case behind it where a viewer must read what the operation's permission
 * would refuse (webhooks, their deliveries) or the admin use cases answer it (workspaces). The
 * dashboard's function is granted the union of these operations' grants, plus the people's tables,
 * and no more (infra/constructs/dashboard-endpoint.ts): a page that starts running another
 * operation adds it here, or its call fails in AWS for want of a permission.
 * test/unit/dashboard/operations-used.test.ts checks that every operation the dashboard names or
 * imports is listed.
 */
export const DASHBOARD_OPERATION_IDS = [
  // Workspaces: read through the admin use cases (the same table and items).
  'listWorkspaces',
  // Accounts: the table and its health, connect (the network's consent page), reconnect, disconnect.
  'listAccounts',
  'getAccount',
  // An account's page: its followers (and the rest its network reports) over time.
  'getAccountMetrics',
  'connectAccount',
  'disconnectAccount',
  // Posts, a post's detail and status history (from the event feed), the approval queue.
  'listPosts',
  'getPost',
  // A published post's metrics on its page, and the workspace overview's last 30 days.
  'getPostMetrics',
  // A post's page: edit, reschedule (updatePost's scheduledAt) and cancel.
  'updatePost',
  'cancelPost',
  // The composer: its Check, its creates (one per account), and media uploaded through it.
  'validatePost',
  'createPost',
  'listMedia',
  'createUploadUrl',
  'confirmMedia',
  'approvePost',
  'rejectPost',
  'listEvents',
  // Webhooks and their deliveries (the three reads through their use cases, for viewers too).
  'createWebhook',
  'listWebhooks',
  'getWebhook',
  'deleteWebhook',
  'testWebhook',
  'listWebhookDeliveries',
  'retryWebhookDelivery',
] as const;

export type DashboardOperationId = (typeof DASHBOARD_OPERATION_IDS)[number];

/** Whether the dashboard runs the operation `id`. */
export function isDashboardOperation(id: string): id is DashboardOperationId {
  return (DASHBOARD_OPERATION_IDS as readonly string[]).includes(id);
}
