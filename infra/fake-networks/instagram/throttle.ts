import type { FakeInstagramControlState } from './control.js';
import { graphError, type Reply } from './http.js';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Instagram's Business Use Case limit for one account, as the Graph rate-limiting page describes
 * it (https://developers.facebook.com/docs/graph-api/overview/rate-limiting/): past the budget a
 * call answers code 80002, and `X-Business-Use-Case-Usage` says, per business id, how full the
 * budget is and in how many minutes access comes back. Undefined: the call may go on.
 */
export function throttled(
  control: FakeInstagramControlState,
  userId: string,
  now: number,
): Reply | undefined {
  const budget = control.callBudgets.get(userId);
  if (!budget) return undefined;
  if (now - budget.windowStart >= HOUR_MS) {
    budget.windowStart = now;
    budget.used = 0;
  }
  budget.used += 1;
  if (budget.used <= budget.limit) return undefined;
  const minutes = Math.max(1, Math.ceil((budget.windowStart + HOUR_MS - now) / 60_000));
  const usage = {
    [userId]: [
      {
        type: 'instagram',
        call_count: 100,
        total_cputime: 12,
        total_time: 15,
        estimated_time_to_regain_access: minutes,
      },
    ],
  };
  return graphError(
    80002,
    'There have been too many calls to this Instagram account. Wait a bit and try again.',
    {
      status: 400,
      headers: { 'X-Business-Use-Case-Usage': JSON.stringify(usage) },
    },
  );
}
