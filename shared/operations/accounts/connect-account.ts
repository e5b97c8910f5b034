import * as z from 'zod';
import { LINKEDIN_APP_KINDS } from '../../domain/linkedin-apps.js';
import { MAX_REDIRECT_URI_LENGTH } from '../../domain/oauth-redirect.js';
import { defineOperation } from '../../http/operation.js';
import { LINKEDIN_APP_OF_KIND } from '../../networks/linkedin/apps.js';
import { startConnect } from '../../services/accounts/start-connect.js';
import { isoTimestamp, workspacePathParams } from '../common-schemas.js';
import { platformInput } from '../posts/post-schemas.js';

export const connectAccount = defineOperation({
  id: 'connectAccount',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/accounts/connect',
  summary: 'Start connecting a social account',
  description:
    "Answers the network's authorization URL: send the person there to consent. The network then sends them to this service's callback, which stores the account (connecting the same network user again keeps its id and replaces its tokens) and sends them on to `redirectUri` with `accountId`, or `error` and `error_description`; without `redirectUri` they see a plain result page. The URL works once, for 10 minutes. `redirectUri` must be HTTPS and on the tenant's or workspace's allow-list (docs/networks.md). Sandbox accounts are made with the admin CLI, not here. LinkedIn has two kinds of app (`linkedinApp`): only an account connected through the community app can post as a Page. 409 network_not_configured when the deployment has no app for the network (or not the `linkedinApp` asked for); 503 when it does not know its own public address.",
  toolDescription:
    "Answers the network's authorizeUrl: send the person there to consent. The network then sends them back to this service, which stores the account (the same network user connected again keeps its id and gets new tokens) and sends them on to redirectUri with accountId, or error and error_description; without redirectUri they see a plain result page. The URL works once, for 10 minutes. redirectUri must be HTTPS and on the tenant's or workspace's allow-list. Sandbox accounts are made with the admin CLI, not here. LinkedIn has two kinds of app (linkedinApp): only an account connected through the community app can post as a Page. network_not_configured (409) when the deployment has no app for the network (or not the linkedinApp asked for); 503 when it does not know its own public address.",
  tag: 'Accounts',
  auth: 'apiKey',
  permission: 'accounts:connect',
  rateLimitFamily: 'other',
  workspace: 'path',
  resources: ['network-apps'],
  errors: ['network_not_configured', 'service_unavailable'],
  successStatus: 200,
  successDescription:
    "The network's consent URL for this connect (send the person there) and when it stops working.",
  schemas: {
    params: workspacePathParams,
    query: z.object({}),
    body: z
      .strictObject({
        platform: platformInput,
        linkedinApp: z
          .enum(LINKEDIN_APP_KINDS)
          .optional()
          .describe(
            'LinkedIn only: the kind of app to connect through. member (Sign In with LinkedIn + Share on LinkedIn) posts as the member; community (the Community Management API) posts as the member and as the Pages they manage. Default: member when the deployment has that app, else community.',
          ),
        redirectUri: z
          .string()
          .max(MAX_REDIRECT_URI_LENGTH)
          .optional()
          .describe(
            'Where to send the person afterwards, with accountId or error added to its query. HTTPS, no fragment, on the allow-list.',
          ),
      })
      .refine((body) => body.linkedinApp === undefined || body.platform === 'linkedin', {
        path: ['linkedinApp'],
        message: 'Only for platform linkedin.',
      }),
    response: z
      .object({
        authorizeUrl: z.string().describe("The network's consent page for this connect."),
        expiresAt: isoTimestamp.describe('After this the callback refuses the connect: start again.'),
      })
      .meta({ id: 'AccountConnect' }),
  },
  async handler({ deps, principal, workspaceId }, { body }) {
    return startConnect(deps, {
      principal,
      workspaceId,
      platform: body.platform,
      ...(body.linkedinApp !== undefined && { app: LINKEDIN_APP_OF_KIND[body.linkedinApp] }),
      ...(body.redirectUri !== undefined && { redirectUri: body.redirectUri }),
    });
  },
});
