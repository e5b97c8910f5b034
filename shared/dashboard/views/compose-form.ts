import type { Context } from 'hono';
import { PLATFORMS, type Platform } from '../../domain/platforms.js';
import { POST_TYPES, POST_TYPES_BY_PLATFORM } from '../../domain/post-types.js';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import {
  checkboxGroup,
  errorSummary,
  type FormProblem,
  postForm,
  selectField,
  textArea,
  textField,
} from '../forms.js';
import { empty, type Html, html, join } from '../html.js';
import { optionFieldset } from './compose-options.js';
import { uploadForm } from './compose-upload.js';
import { NETWORK_NAMES } from './posts-format.js';

/** The thread or carousel parts after the first (the Text): enough for a short thread. */
export const EXTRA_ITEMS = 4;

export interface ComposeAccount {
  id: string;
  handle: string;
  platform: Platform;
}

export interface ComposeMedia {
  mediaId: string;
  filename: string;
  mimeType: string;
}

/** What the composer holds: shown again, as typed, after a check or a refusal. */
export interface ComposeValues {
  accountIds: string[];
  postType: string;
  content: string;
  items: string[];
  mediaIds: string[];
  /** Alt text by media id. */
  alts: Record<string, string>;
  scheduledAt: string;
  /** platformOptions fields by input name (`opt.<platform>.<field>`). */
  options: Record<string, string>;
  /** The first comment's text (docs/first-comment.md); empty: none. */
  firstComment: string;
  /** The link card's URL; empty: none. */
  linkUrl: string;
  /** Makes the creates of one composition idempotent: the same key again never posts twice. */
  composeKey: string;
}

/** One account's answer: what validatePost or createPost said for it. */
export type AccountOutcome =
  | { accountId: string; kind: 'valid'; postStatus: string }
  | { accountId: string; kind: 'created'; postId: string; status: string }
  | { accountId: string; kind: 'refused'; messages: string[] };

export const composePath = (workspaceId: string) => `${DASHBOARD_BASE}/workspaces/${workspaceId}/posts/new`;

const accountLabel = (account: ComposeAccount) => `${account.handle} (${NETWORK_NAMES[account.platform]})`;

const postTypeHint = PLATFORMS.map(
  (platform) => `${NETWORK_NAMES[platform]}: ${POST_TYPES_BY_PLATFORM[platform].join(', ')}`,
).join('; ');

function outcomes(
  workspaceId: string,
  accounts: readonly ComposeAccount[],
  list: readonly AccountOutcome[],
): Html {
  if (list.length === 0) return empty;
  const nameOf = (id: string) => {
    const account = accounts.find((candidate) => candidate.id === id);
    return account ? accountLabel(account) : id;
  };
  return html`<section aria-labelledby="outcome-heading" class="outcomes"><h2 id="outcome-heading">Check</h2><ul>${join(
    list.map((outcome) => {
      if (outcome.kind === 'valid') {
        return html`<li><strong>${nameOf(outcome.accountId)}</strong>: <span class="badge good">ready</span> it would start as ${outcome.postStatus.replace('_', ' ')}.</li>`;
      }
      if (outcome.kind === 'created') {
        return html`<li><strong>${nameOf(outcome.accountId)}</strong>: <a href="${DASHBOARD_BASE}/workspaces/${workspaceId}/posts/${outcome.postId}">post created</a> (${outcome.status.replace('_', ' ')}).</li>`;
      }
      return html`<li><strong>${nameOf(outcome.accountId)}</strong>: <span class="badge bad">refused</span><ul>${join(
        outcome.messages.map((message) => html`<li>${message}</li>`),
      )}</ul></li>`;
    }),
  )}</ul></section>`;
}

function mediaFields(media: readonly ComposeMedia[], values: ComposeValues): Html {
  // #compose-media: where the upload control's script adds a media uploaded straight to storage.
  if (media.length === 0)
    return html`<div id="compose-media"><p class="hint">No uploaded media in this workspace yet.</p></div>`;
  return html`<div id="compose-media">${checkboxGroup({
    name: 'mediaIds',
    legend: 'Media',
    choices: media.map((item) => ({ value: item.mediaId, label: `${item.filename} (${item.mimeType})` })),
    checked: values.mediaIds,
  })}${join(
    media
      .filter((item) => values.mediaIds.includes(item.mediaId))
      .map((item) =>
        textField({
          name: `alt.${item.mediaId}`,
          label: `Alt text for ${item.filename}`,
          value: values.alts[item.mediaId] ?? '',
        }),
      ),
  )}</div>`;
}

export interface ComposeView {
  workspaceId: string;
  accounts: readonly ComposeAccount[];
  media: readonly ComposeMedia[];
  values: ComposeValues;
  outcomes?: readonly AccountOutcome[];
  problem?: FormProblem;
}

/**
 * The composer: accounts (one post each, as the API makes them), type, text and parts, media,
 * each network's options, a time; Check runs validatePost for each account, the other buttons
 * createPost. Works without script.
 */
export function composeBody(c: Context<DashboardEnv>, view: ComposeView): Html {
  const { values, workspaceId } = view;
  const errors = view.problem?.fields;
  if (view.accounts.length === 0) {
    return html`<p>This workspace has no account to post to yet. <a href="${DASHBOARD_BASE}/workspaces/${workspaceId}/accounts">Connect an account</a> first.</p>`;
  }
  const networks = PLATFORMS.filter((platform) =>
    view.accounts.some((account) => account.platform === platform),
  );
  const form = postForm(
    c,
    composePath(workspaceId),
    html`<input type="hidden" name="composeKey" value="${values.composeKey}">${checkboxGroup({
      name: 'accountIds',
      legend: 'Accounts (one post each)',
      choices: view.accounts.map((account) => ({ value: account.id, label: accountLabel(account) })),
      checked: values.accountIds,
      ...(errors && { errors }),
    })}${selectField({
      name: 'postType',
      label: 'Post type',
      choices: POST_TYPES.map((type) => ({ value: type, label: type })),
      value: values.postType,
      ...(errors && { errors }),
    })}<p class="hint">${postTypeHint}.</p>${textArea({
      name: 'content',
      label: 'Text',
      value: values.content,
      rows: 5,
      ...(errors && { errors }),
    })}<fieldset class="field"><legend>More parts (a thread or carousel)</legend><p class="hint">When any is filled, the post is a list of parts: the Text first, then these; the media go with the first part.</p>${join(
      values.items.map((item, index) =>
        textArea({ name: `item.${index}`, label: `Part ${index + 2}`, value: item, rows: 2 }),
      ),
    )}</fieldset>${mediaFields(view.media, values)}${textField({
      name: 'linkUrl',
      label: 'Link card',
      type: 'url',
      hint: 'A page shown as a card, where the network shows one (the networks that build no card refuse it on Check).',
      value: values.linkUrl,
      ...(errors && { errors }),
    })}${textArea({
      name: 'firstComment',
      label: 'First comment',
      hint: 'Posted by the same account on the post once it is published; its failure never fails the post.',
      value: values.firstComment,
      rows: 2,
      ...(errors && { errors }),
    })}${join(networks.map((platform) => optionFieldset(platform, values.options)))}${textField({
      name: 'scheduledAt',
      label: 'Scheduled at',
      type: 'datetime-local',
      hint: 'UTC. Needed to schedule; optional on a draft.',
      value: values.scheduledAt,
      ...(errors && { errors }),
    })}<div class="actions"><button type="submit" name="intent" value="check" class="secondary">Check</button> <button type="submit" name="intent" value="draft" class="secondary">Save as draft</button> <button type="submit" name="intent" value="schedule">Schedule</button> <button type="submit" name="intent" value="publish">Publish now</button></div>`,
    { label: 'New post', liveCheck: true },
  );
  // #check-answer is where the dashboard's script puts a live Check's answer (a polite live region).
  return html`${errorSummary(view.problem)}<div id="check-answer" aria-live="polite">${outcomes(
    workspaceId,
    view.accounts,
    view.outcomes ?? [],
  )}</div>${uploadForm(
    c,
    composePath(workspaceId),
  )}<section aria-labelledby="compose-heading"><h2 id="compose-heading">Post</h2>${form}</section>`;
}
