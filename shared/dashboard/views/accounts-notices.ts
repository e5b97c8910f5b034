import { CONNECT_ERRORS, type ConnectErrorCode } from '../../services/accounts/connect-errors.js';

export interface PageMessages {
  notice?: string;
  alert?: string;
}

const DONE: Readonly<Record<string, string>> = {
  disconnected: 'Account disconnected.',
};

const isConnectError = (code: string): code is ConnectErrorCode => Object.hasOwn(CONNECT_ERRORS, code);

const GENERIC_CONNECT_ERROR = 'The account was not connected. Start connecting again.';

/**
 * What the accounts page says after an action or a connect's return, from its query. Only fixed
 * sentences: the query's own text is never shown. `connectedHere`: the query's `accountId` is an
 * account of this workspace, so a crafted link cannot claim a connect.
 */
export function accountsPageMessages(
  query: { done?: string; error?: string },
  connectedHere: boolean,
): PageMessages {
  if (query.error !== undefined) {
    return { alert: isConnectError(query.error) ? CONNECT_ERRORS[query.error] : GENERIC_CONNECT_ERROR };
  }
  if (connectedHere) return { notice: 'Account connected.' };
  if (query.done !== undefined && Object.hasOwn(DONE, query.done)) return { notice: DONE[query.done] };
  return {};
}
