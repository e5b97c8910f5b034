import * as z from 'zod';
import { redirectWithResult } from '../../domain/oauth-redirect.js';
import { PLATFORMS } from '../../domain/platforms.js';
import { defineOperation, Reply } from '../../http/operation.js';
import { NETWORK_NAMES } from '../../networks/definitions.js';
import { type ConnectOutcome, completeConnect } from '../../services/accounts/complete-connect.js';
import { CONNECT_ERRORS } from '../../services/accounts/connect-errors.js';
import { CALLBACK_HEADERS, PAGE_HEADERS, resultPage } from './connect-result-page.js';

const redirect = (location: string) => new Reply('', 302, { ...CALLBACK_HEADERS, Location: location });
const page = (status: number, title: string, paragraphs: string[]) =>
  new Reply(resultPage(title, paragraphs), status, PAGE_HEADERS);

/** The outcome as the browser gets it: back to the caller's redirectUri, else our own page. */
function answer(outcome: ConnectOutcome): Reply<string> {
  switch (outcome.kind) {
    case 'invalid_state':
      return page(400, 'This connection link is no longer valid', [
        'It has expired (links work for 10 minutes), was used already, or is not one of ours.',
        'Start connecting the account again.',
      ]);
    case 'connected': {
      const { account } = outcome;
      if (outcome.redirectUri)
        return redirect(redirectWithResult(outcome.redirectUri, { accountId: account.accountId }));
      // A consent that granted several accounts (pages) names each, the first as before.
      const others = outcome.accounts
        .slice(1)
        .map(
          (other) => `Also connected: ${other.displayName} (${other.handle}), account id ${other.accountId}.`,
        );
      return page(200, outcome.accounts.length > 1 ? 'Accounts connected' : 'Account connected', [
        `${account.displayName} (${account.handle}) on ${NETWORK_NAMES[account.platform]} is connected.`,
        `Account id: ${account.accountId}`,
        ...others,
        'You can close this window.',
      ]);
    }
    case 'failed': {
      const description = CONNECT_ERRORS[outcome.error];
      if (outcome.redirectUri) {
        return redirect(
          redirectWithResult(outcome.redirectUri, { error: outcome.error, error_description: description }),
        );
      }
      return page(400, 'The account was not connected', [description, `Reason: ${outcome.error}`]);
    }
  }
}

export const oauthCallback = defineOperation({
  id: 'oauthCallback',
  method: 'GET',
  path: '/v1/oauth/{platform}/callback',
  summary: 'Where a network sends the person back after consenting',
  description:
    "Not called by API clients: the network redirects the person's browser here at the end of a connect (POST …/accounts/connect). It takes no API key: the single-use `state` authenticates it. The account is stored, then the browser goes to the connect's `redirectUri` with `accountId`, or `error` and `error_description` (access_denied, network_error, grant_refused, temporarily_unavailable, network_not_configured, no_publishable_account, not_authorized, server_error); without `redirectUri` it shows a plain page. A `state` that is unknown, expired or already used gets a page saying so (400): there is nowhere safe to redirect.",
  tag: 'Accounts',
  auth: 'none',
  rateLimitFamily: 'other',
  workspace: 'none',
  resources: ['network-apps', 'oauth-tokens-encrypt'],
  effects: { reachesNetwork: true },
  successStatus: 200,
  successDescription:
    'The result page (HTML), when the connect had no redirectUri: the account is connected, or why not.',
  nonJson: {
    mediaType: 'text/html',
    otherStatuses: {
      302: {
        description:
          "Back to the connect's redirectUri, with `accountId` or `error` and `error_description` added to its query.",
        headers: { Location: 'The redirectUri with the result.' },
        hasBody: false,
      },
      400: {
        description:
          'A page: the state is unknown, expired or already used, or (without redirectUri) the account was not connected and why.',
        hasBody: true,
      },
    },
  },
  schemas: {
    params: z.object({
      platform: z
        .enum(PLATFORMS)
        .describe('The network the person consented at, as named when the connect started.'),
    }),
    query: z.object({
      state: z
        .string()
        .min(1)
        .max(512)
        .describe('The state of the authorization request, echoed by the network.'),
      code: z
        .string()
        .min(1)
        .max(4096)
        .optional()
        .describe('The authorization code, when the person consented.'),
      error: z.string().max(256).optional().describe("The network's error, e.g. access_denied."),
    }),
    response: z.string().describe('The result page (HTML), when the connect had no redirectUri.'),
  },
  async handler({ deps, logger }, { params, query }) {
    const outcome = await completeConnect(
      deps,
      {
        platform: params.platform,
        state: query.state,
        ...(query.code !== undefined && { code: query.code }),
        ...(query.error !== undefined && { error: query.error }),
      },
      logger,
    );
    return answer(outcome);
  },
});
