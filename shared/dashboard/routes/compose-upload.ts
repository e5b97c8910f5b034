import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppError } from '../../domain/errors.js';
import { callOperation } from '../call-operation.js';
import type { DashboardEnv } from '../env.js';
import { problemFrom, readForm, textOf } from '../forms.js';

type Ctx = Context<DashboardEnv>;

/** What the composer's script reads of a refusal: the message to show, and the fields' own. */
export interface UploadProblem {
  message: string;
  fields: Record<string, string[]>;
}

/** What the script needs to PUT the file: the URL and exactly the headers it was signed for. */
export interface IssuedDirectUpload {
  mediaId: string;
  uploadUrl: string;
  headers: Record<string, string>;
  expiresAt: string;
}

/** The confirmed media, as the script adds it to the composer's Media. */
export interface ConfirmedDirectUpload {
  mediaId: string;
  filename: string;
  mimeType: string;
  status: string;
}

function refusal(c: Ctx, error: AppError) {
  const problem = problemFrom(error);
  const body: UploadProblem = {
    message: problem.message,
    fields: problem.fields as Record<string, string[]>,
  };
  return c.json(body, error.status as ContentfulStatusCode);
}

/** Digits as a number; anything else as typed, for the operation's own validation to refuse. */
function sizeOf(text: string): number | string {
  return /^\d{1,16}$/.test(text) ? Number(text) : text;
}

/**
 * The composer's direct upload (docs/dashboard.md, "Upload"), for its script: the file goes
 * from the browser straight to storage, never through the dashboard, so the API's own media limits
 * apply instead of the 4 MB the dashboard relays. Both are form posts (the CSRF token in `_csrf`,
 * the Origin checked), answering JSON:
 * 1. `…/media/url`: createUploadUrl for the file's name, type and size (201: the URL and headers);
 * 2. the script PUTs the file to the URL;
 * 3. `…/media/:mediaId/confirm`: confirmMedia (idempotent: the bucket's notification may have
 *    confirmed it already), answering the media the script ticks in the composer.
 * A refusal is the API's status with `{ message, fields }`.
 */
export function registerComposeUploadRoutes(app: Hono<DashboardEnv>): void {
  app.post('/workspaces/:workspaceId/posts/new/media/url', async (c) => {
    const form = await readForm(c);
    const issued = await callOperation<IssuedDirectUpload>(c, 'createUploadUrl', {
      params: { workspace_id: c.var.workspace.workspaceId },
      body: {
        filename: textOf(form, 'filename'),
        mimeType: textOf(form, 'mimeType'),
        sizeBytes: sizeOf(textOf(form, 'sizeBytes')),
      },
    });
    if (!issued.ok) return refusal(c, issued.error);
    const { mediaId, uploadUrl, headers, expiresAt } = issued.body;
    const answer: IssuedDirectUpload = { mediaId, uploadUrl, headers, expiresAt };
    return c.json(answer, 201);
  });

  app.post('/workspaces/:workspaceId/posts/new/media/:mediaId/confirm', async (c) => {
    const confirmed = await callOperation<ConfirmedDirectUpload>(c, 'confirmMedia', {
      params: { workspace_id: c.var.workspace.workspaceId, media_id: c.req.param('mediaId') },
    });
    if (!confirmed.ok) return refusal(c, confirmed.error);
    const { mediaId, filename, mimeType, status } = confirmed.body;
    const answer: ConfirmedDirectUpload = { mediaId, filename, mimeType, status };
    return c.json(answer);
  });
}
