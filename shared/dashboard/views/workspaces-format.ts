import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
} from '../../domain/errors.js';
import { DASHBOARD_BASE } from '../env.js';
import { type FormProblem, problemFrom } from '../forms.js';

export const workspacesPath = (workspaceId?: string) =>
  workspaceId ? `${DASHBOARD_BASE}/workspaces/${workspaceId}` : `${DASHBOARD_BASE}/workspaces`;

/** A refused form as the page re-renders it: what to say, and the status to answer with. */
export interface Refusal {
  problem: FormProblem;
  status: ContentfulStatusCode;
}

/**
 * A use case's refusal as a form shows it: bad input 422, a rule of the person's role 403 (said
 * in the dashboard's words, not the API key's), something gone 404, a clash 409. Anything else is
 * not ours to show and is thrown on (a 500 page).
 */
export function refusalOf(error: unknown): Refusal {
  if (error instanceof PermissionDeniedError) {
    return { problem: { message: 'Your role does not allow this.', fields: {} }, status: 403 };
  }
  if (error instanceof InvalidRequestError) return { problem: problemFrom(error), status: 422 };
  if (error instanceof NotFoundError) return { problem: problemFrom(error), status: 404 };
  if (error instanceof ConflictError) return { problem: problemFrom(error), status: 409 };
  throw error;
}

/** The fixed message of a `?done=` code, or undefined for a code the page does not know. */
export function noticeOf(
  done: string | undefined,
  notices: Readonly<Record<string, string>>,
): string | undefined {
  return done !== undefined && Object.hasOwn(notices, done) ? notices[done] : undefined;
}
