import { isRecord, readJson } from '../http/json-answer.js';
import { type FailedOutcome, failed } from '../publish/failed-outcome.js';

// Reading a Meta Graph API error answer, the part every connector on a Graph host does alike. What
// a network makes of the facts (its codes, its messages) stays in its own errors.ts.

/** The numbers a Graph error answer carries; its text is never kept. */
export interface GraphErrorFacts {
  status: number;
  code?: number;
  subcode?: number;
}

/** The facts, and the body's `error` object for the network to read its own extra signals from. */
export interface GraphErrorAnswer {
  facts: GraphErrorFacts;
  error: Record<string, unknown> | undefined;
}

/** Reads `{ error: { code, error_subcode } }` from an answer; a body without them leaves the status alone. */
export async function readGraphErrorAnswer(response: Response): Promise<GraphErrorAnswer> {
  const body = await readJson(response);
  const facts: GraphErrorFacts = { status: response.status };
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (error && typeof error.code === 'number') facts.code = error.code;
  if (error && typeof error.error_subcode === 'number') facts.subcode = error.error_subcode;
  return { facts, error };
}

/**
 * Seconds until a throttled app may call again, from `X-Business-Use-Case-Usage`'s
 * `estimated_time_to_regain_access` (minutes; the longest of its entries), when it names any.
 */
export function regainSecondsOf(headers: Headers): number | undefined {
  const header = headers.get('x-business-use-case-usage');
  if (!header) return undefined;
  try {
    const usage: unknown = JSON.parse(header);
    if (!isRecord(usage)) return undefined;
    let minutes = 0;
    for (const entries of Object.values(usage)) {
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) {
        const value = isRecord(entry) ? entry.estimated_time_to_regain_access : undefined;
        if (typeof value === 'number' && value > minutes) minutes = value;
      }
    }
    return minutes > 0 ? minutes * 60 : undefined;
  } catch {
    return undefined;
  }
}

/** `platformRawCode`: `code/subcode`, or the code alone, or the HTTP status when the body had none. */
export function rawCodeOf(facts: GraphErrorFacts): string {
  if (facts.code === undefined) return String(facts.status);
  return facts.subcode === undefined ? String(facts.code) : `${facts.code}/${facts.subcode}`;
}

/** Builds the `failed` outcomes of one Graph error, each carrying its raw code. */
export function graphFailure(
  facts: GraphErrorFacts,
): (failure: FailedOutcome['failure'], code: string, message: string) => FailedOutcome {
  const platformRawCode = rawCodeOf(facts);
  return (failure, code, message) => failed(failure, code, message, { platformRawCode });
}
