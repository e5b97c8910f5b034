import type { PageGroup } from './lazy-pages.js';

/** A workspace's pages: the workspace guard's paths. */
export const IN_WORKSPACE = '/workspaces/:workspaceId';

/**
 * The pages behind sign-in, by route module, each imported on its group's first request
 * (lazy-pages.ts). In this order: a path goes to the first group listing it, so the composer
 * (`/posts/new`) and a post's approval come before the posts' own `/posts/:postId`.
 */
export const PAGE_GROUPS: readonly PageGroup[] = [
  { paths: ['/users'], load: () => import('./routes/users.js').then((m) => m.registerUserRoutes) },
  {
    paths: ['/workspaces', IN_WORKSPACE, `${IN_WORKSPACE}/rename`, `${IN_WORKSPACE}/metrics-collection`],
    load: () => import('./routes/workspaces.js').then((m) => m.registerWorkspaceRoutes),
  },
  {
    paths: ['/agents/*', `${IN_WORKSPACE}/agents/*`],
    load: () => import('./routes/agents.js').then((m) => m.registerAgentRoutes),
  },
  {
    paths: [`${IN_WORKSPACE}/policies`],
    load: () => import('./routes/policies.js').then((m) => m.registerPolicyRoutes),
  },
  {
    paths: [`${IN_WORKSPACE}/accounts/*`],
    load: () => import('./routes/accounts.js').then((m) => m.registerAccountRoutes),
  },
  {
    paths: [`${IN_WORKSPACE}/posts/new/*`],
    load: () => import('./routes/compose.js').then((m) => m.registerComposeRoutes),
  },
  {
    paths: [
      `${IN_WORKSPACE}/approvals`,
      `${IN_WORKSPACE}/posts/:postId/approve`,
      `${IN_WORKSPACE}/posts/:postId/reject`,
    ],
    load: () => import('./routes/approvals.js').then((m) => m.registerApprovalRoutes),
  },
  {
    paths: [`${IN_WORKSPACE}/posts/*`],
    load: () => import('./routes/posts.js').then((m) => m.registerPostRoutes),
  },
  {
    paths: [`${IN_WORKSPACE}/calendar`],
    load: () => import('./routes/calendar.js').then((m) => m.registerCalendarRoutes),
  },
  {
    paths: [`${IN_WORKSPACE}/webhooks/*`],
    load: () => import('./routes/webhooks.js').then((m) => m.registerWebhookRoutes),
  },
];
