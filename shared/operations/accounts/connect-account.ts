import * as z from 'zod';
import { MAX_REDIRECT_URI_LENGTH } from '../../domain/oauth-redirect.js';
import { defineOperation } from '../../http/operation.js';
import { appAskedFor } from '../../networks/app-kinds.js';
import { APP_CHOICES } from '../../networks/definitions.js';
import { startConnect } from '../../services/accounts/start-connect.js';
import { isoTimestamp, workspacePathParams } from '../common-schemas.js';
import { platformInput } from '../posts/post-schemas.js';
import { appChoiceFields, refuseChoicesOfOtherPlatforms } from './app-choice-fields.js';

const COUNTS = ['no', 'one', 'two', 'three', 'four', 'five'];

/**
 * What the description says of the networks with more than one kind of app, `code` marking a
 * field's name (backticks in markdown, nothing for tools): a note each, and the 409 they add.
 */
function appChoiceWording(code: (field: string) => string): { notes: string; notConfigured: string } {
  const notes = APP_CHOICES.map((choice) => {
    const count = Object.keys(choice.kinds).length;
    return `${choice.displayName} has ${COUNTS[count] ?? count} kinds of app (${code(choice.field)}): ${choice.connectNote} `;
  }).join('');
  const fields = APP_CHOICES.map((choice) => code(choice.field)).join(' or ');
  return { notes, notConfigured: fields === '' ? '' : ` (or not the ${fields} asked for)` };
}

const markdown = appChoiceWording((field) => `\`${field}\``);
const plain = appChoiceWording((field) => field);

export const connectAccount = defineOperation({
  id: 'connectAccount',
  method: 'POST',
  path: '/v1/workspaces/{workspace_id}/accounts/connect',
  summary: 'Start connecting a social account',
  description:
    "Answers the network's authorization URL: send the person there to consent. The network then sends them to this service's callback, which stores the account (connecting the same network user again keeps its id and replaces its tokens) and sends them on to `redirectUri` with `accountId`, or `error` and `error_description`; without `redirectUri` they see a plain result page. The URL works once, for 10 minutes. `redirectUri` must be HTTPS and on the tenant's or workspace's allow-list (docs/networks.md). Sandbox accounts are made with the admin CLI, not here. " +
    `${markdown.notes}409 network_not_configured when the deployment has no app for the network${markdown.notConfigured}; 503 when it does not know its own public address.`,
  toolDescription:
    "Answers the network's authorizeUrl: send the person there to consent. The network sends them back to this service, which stores the account (the same network user again keeps its id, with new tokens) and sends them on to redirectUri with accountId, or error and error_description; without redirectUri, a plain result page. The URL works once, for 10 minutes. redirectUri: HTTPS, on the tenant's or workspace's allow-list. Sandbox accounts: the admin CLI. " +
    `${plain.notes}network_not_configured (409) when the deployment has no app for the network${plain.notConfigured}; 503 when it does not know its own public address.`,
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
        ...appChoiceFields(
          (choice) =>
            `${choice.displayName} only: the kind of app to connect through. ${choice.connectDescription}`,
        ),
        redirectUri: z
          .string()
          .max(MAX_REDIRECT_URI_LENGTH)
          .optional()
          .describe(
            'Where to send the person afterwards, with accountId or error added to its query. HTTPS, no fragment, on the allow-list.',
          ),
      })
      .superRefine(refuseChoicesOfOtherPlatforms),
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
      ...appAskedFor(body),
      ...(body.redirectUri !== undefined && { redirectUri: body.redirectUri }),
    });
  },
});
