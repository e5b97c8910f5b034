import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { Platform } from '../../domain/platforms.js';
import { callOperation } from '../call-operation.js';
import type { DashboardEnv } from '../env.js';
import { type FormProblem, listOf, problemFrom, readForm, textOf } from '../forms.js';
import { page } from '../pages.js';
import {
  type AccountOutcome,
  type ComposeAccount,
  type ComposeMedia,
  type ComposeValues,
  composeBody,
  composePath,
  EXTRA_ITEMS,
} from '../views/compose-form.js';
import { optionsFromForm } from '../views/compose-options.js';
import { pageStatusOf } from '../views/posts-format.js';
import { utcFromInput } from '../views/posts-list.js';
import { registerComposeUploadRoutes } from './compose-upload.js';

type Ctx = Context<DashboardEnv>;

/** The largest file the dashboard relays: under API Gateway's and Lambda's request limits. */
const MAX_RELAYED_BYTES = 4 * 1024 * 1024;

const INTENTS = { draft: 'draft', schedule: 'scheduled', publish: 'publish' } as const;

function freshValues(mediaIds: string[] = []): ComposeValues {
  return {
    accountIds: [],
    postType: 'text',
    content: '',
    items: Array.from({ length: EXTRA_ITEMS }, () => ''),
    mediaIds,
    alts: {},
    scheduledAt: '',
    options: {},
    firstComment: '',
    linkUrl: '',
    composeKey: randomUUID(),
  };
}

async function choices(c: Ctx): Promise<{ accounts: ComposeAccount[]; media: ComposeMedia[] }> {
  const params = { workspace_id: c.var.workspace.workspaceId };
  const [accounts, media] = await Promise.all([
    callOperation<{ data: ComposeAccount[] }>(c, 'listAccounts', { params, query: { limit: '100' } }),
    callOperation<{ data: Array<ComposeMedia & { status: string }> }>(c, 'listMedia', {
      params,
      query: { limit: '50' },
    }),
  ]);
  return {
    accounts: accounts.ok
      ? accounts.body.data.map((account) => ({
          id: account.id,
          handle: account.handle,
          platform: account.platform,
        }))
      : [],
    media: media.ok ? media.body.data.filter((item) => item.status === 'uploaded') : [],
  };
}

function valuesOf(form: Record<string, string | string[]>): ComposeValues {
  const mediaIds = listOf(form, 'mediaIds');
  const options: Record<string, string> = {};
  for (const name of Object.keys(form)) if (name.startsWith('opt.')) options[name] = textOf(form, name);
  return {
    accountIds: listOf(form, 'accountIds'),
    postType: textOf(form, 'postType'),
    content: typeof form.content === 'string' ? form.content : '',
    items: Array.from({ length: EXTRA_ITEMS }, (_, index) => textOf(form, `item.${index}`)),
    mediaIds,
    alts: Object.fromEntries(mediaIds.map((id) => [id, textOf(form, `alt.${id}`)])),
    scheduledAt: textOf(form, 'scheduledAt'),
    options,
    firstComment: textOf(form, 'firstComment'),
    linkUrl: textOf(form, 'linkUrl'),
    composeKey: textOf(form, 'composeKey') || randomUUID(),
  };
}

/** The post the API is asked for, for one account: the same body as a REST client sends. */
function bodyFor(values: ComposeValues, platform: Platform, accountId: string, status: string | undefined) {
  const media = values.mediaIds.map((id) => ({ id, ...(values.alts[id] && { alt: values.alts[id] }) }));
  const parts = values.items.filter((item) => item !== '');
  const content =
    parts.length > 0
      ? [{ text: values.content, ...(media.length > 0 && { media }) }, ...parts.map((text) => ({ text }))]
      : values.content;
  const options = optionsFromForm(platform, values.options);
  return {
    platform,
    accountId,
    ...(status && { status }),
    postType: values.postType,
    content,
    ...(parts.length === 0 && media.length > 0 && { media }),
    ...(values.scheduledAt !== '' &&
      status !== 'publish' && { scheduledAt: utcFromInput(values.scheduledAt) }),
    ...(options && { platformOptions: options }),
    ...(values.firstComment.trim() !== '' && { firstComment: { text: values.firstComment } }),
    ...(values.linkUrl.trim() !== '' && { link: { url: values.linkUrl.trim() } }),
  };
}

/** A refusal as the lines the composer lists under the account. */
function refusalLines(error: unknown): string[] {
  const problem = problemFrom(error);
  const fields = Object.entries(problem.fields).flatMap(([field, messages]) =>
    (messages ?? []).map((message) => `${field}: ${message}`),
  );
  return [problem.message, ...fields];
}

interface ValidationAnswer {
  valid: boolean;
  postStatus: string;
  errors: Array<{ field: string; message: string }>;
  policyViolation?: { message: string };
}

async function checkOne(c: Ctx, body: object, accountId: string): Promise<AccountOutcome> {
  const checked = await callOperation<ValidationAnswer>(c, 'validatePost', {
    params: { workspace_id: c.var.workspace.workspaceId },
    body,
  });
  if (!checked.ok) return { accountId, kind: 'refused', messages: refusalLines(checked.error) };
  const answer = checked.body;
  if (answer.valid) return { accountId, kind: 'valid', postStatus: answer.postStatus };
  return {
    accountId,
    kind: 'refused',
    messages: [
      ...answer.errors.map((error) => `${error.field}: ${error.message}`),
      ...(answer.policyViolation ? [answer.policyViolation.message] : []),
    ],
  };
}

async function createOne(
  c: Ctx,
  body: object,
  accountId: string,
  composeKey: string,
): Promise<AccountOutcome> {
  const created = await callOperation<{ id: string; status: string }>(c, 'createPost', {
    params: { workspace_id: c.var.workspace.workspaceId },
    // One key per composition and account: sending the form again replays, never posts twice.
    headers: { 'idempotency-key': `dash-${composeKey}-${accountId}` },
    body,
  });
  if (!created.ok) return { accountId, kind: 'refused', messages: refusalLines(created.error) };
  return { accountId, kind: 'created', postId: created.body.id, status: created.body.status };
}

const UPLOAD_NOTICES: Record<string, string> = { uploaded: 'Media uploaded: it is ticked below.' };

export function registerComposeRoutes(app: Hono<DashboardEnv>): void {
  app.get('/workspaces/:workspaceId/posts/new', async (c) => {
    const { accounts, media } = await choices(c);
    const picked = c.req.query('media');
    const values = freshValues(picked && media.some((item) => item.mediaId === picked) ? [picked] : []);
    const notice = UPLOAD_NOTICES[c.req.query('done') ?? ''];
    return page(c, {
      title: 'New post',
      body: composeBody(c, { workspaceId: c.var.workspace.workspaceId, accounts, media, values }),
      ...(notice && { notice }),
    });
  });

  app.post('/workspaces/:workspaceId/posts/new', async (c) => {
    const form = await readForm(c);
    const values = valuesOf(form);
    const intent = textOf(form, 'intent');
    const { accounts, media } = await choices(c);
    const workspaceId = c.var.workspace.workspaceId;
    const show = (
      options: { outcomes?: AccountOutcome[]; problem?: FormProblem; notice?: string },
      status = 200,
    ) =>
      page(
        c,
        {
          title: 'New post',
          body: composeBody(c, { workspaceId, accounts, media, values, ...options }),
          ...(options.notice && { notice: options.notice }),
        },
        status as 200,
      );
    const chosen = values.accountIds.flatMap((id) => accounts.filter((account) => account.id === id));
    if (chosen.length === 0) {
      const message = 'Choose at least one account.';
      return show({ problem: { message, fields: { accountIds: [message] } } }, 422);
    }
    if (intent === 'check') {
      const outcomes = await Promise.all(
        chosen.map((account) =>
          // Checked as it would be submitted: scheduled with a time, else now (a draft skips the rules).
          checkOne(
            c,
            bodyFor(
              values,
              account.platform,
              account.id,
              values.scheduledAt !== '' ? 'scheduled' : 'publish',
            ),
            account.id,
          ),
        ),
      );
      return show({ outcomes });
    }
    const status = INTENTS[intent as keyof typeof INTENTS];
    if (!status)
      return show(
        { problem: { message: 'Choose Check, Save as draft, Schedule or Publish now.', fields: {} } },
        422,
      );
    // One at a time: each create counts against the rate limit, as an API client's would.
    const outcomes: AccountOutcome[] = [];
    for (const account of chosen) {
      outcomes.push(
        await createOne(
          c,
          bodyFor(values, account.platform, account.id, status),
          account.id,
          values.composeKey,
        ),
      );
    }
    const created = outcomes.filter((outcome) => outcome.kind === 'created').length;
    const refused = outcomes.length - created;
    // What was made stays made: the form keeps only the accounts still to do, with the same key.
    values.accountIds = outcomes
      .filter((outcome) => outcome.kind === 'refused')
      .map((outcome) => outcome.accountId);
    if (refused === 0) {
      const done = freshValues();
      Object.assign(values, done);
    }
    return show(
      {
        outcomes,
        ...(created > 0 && { notice: `${created} post${created === 1 ? '' : 's'} created.` }),
      },
      refused > 0 ? 422 : 200,
    );
  });

  // With script, the browser sends the file straight to storage (compose-upload.ts).
  registerComposeUploadRoutes(app);

  // Without script, the upload through the dashboard (the fallback): the file through the API's
  // presigned URL (createUploadUrl, the PUT, confirmMedia), relayed by this function.
  app.post('/workspaces/:workspaceId/posts/new/media', async (c) => {
    const body = await c.req.parseBody();
    const file = body.file;
    const workspaceId = c.var.workspace.workspaceId;
    const refuse = async (message: string, status: number) => {
      const { accounts, media } = await choices(c);
      return page(
        c,
        {
          title: 'New post',
          body: composeBody(c, { workspaceId, accounts, media, values: freshValues() }),
          alert: message,
        },
        status as 422,
      );
    };
    if (!(file instanceof File) || file.size === 0) return refuse('Choose a file to upload.', 422);
    if (file.size > MAX_RELAYED_BYTES) {
      return refuse('The dashboard uploads files up to 4 MB; send larger ones through the API.', 422);
    }
    const issued = await callOperation<{
      mediaId: string;
      uploadUrl: string;
      headers: Record<string, string>;
    }>(c, 'createUploadUrl', {
      params: { workspace_id: workspaceId },
      body: { filename: file.name, mimeType: file.type, sizeBytes: file.size },
    });
    if (!issued.ok) return refuse(refusalLines(issued.error).join(' '), pageStatusOf(issued.error));
    const put = await fetch(issued.body.uploadUrl, {
      method: 'PUT',
      headers: issued.body.headers,
      body: new Uint8Array(await file.arrayBuffer()),
    });
    if (!put.ok) {
      c.var.logger.warn('dashboard: media upload refused by storage', { status: put.status });
      return refuse('The storage refused the file. Try again.', 502);
    }
    const confirmed = await callOperation(c, 'confirmMedia', {
      params: { workspace_id: workspaceId, media_id: issued.body.mediaId },
    });
    if (!confirmed.ok) return refuse(refusalLines(confirmed.error).join(' '), pageStatusOf(confirmed.error));
    return c.redirect(`${composePath(workspaceId)}?media=${issued.body.mediaId}&done=uploaded`, 303);
  });
}
