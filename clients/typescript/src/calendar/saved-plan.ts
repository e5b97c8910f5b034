import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import type { CreatePostBody, Post } from '../types.js';
import { generationOfCreate, idempotencyKeyFor } from './idempotency.js';
import type { ChangeKind, PlanItem, ServiceState } from './model.js';

/** Marks the file as ours, so a calendar or another JSON file given to `apply --plan` is refused plainly. */
const FORMAT = 'social-calendar-plan';

/** One change as apply makes it, without reading the calendar file again. */
export interface SavedPlanItem {
  kind: Exclude<ChangeKind, 'unchanged'>;
  externalId: string;
  /** The post changed or cancelled (absent for a create). */
  postId?: string;
  /** create: the body to send, with its Idempotency-Key. */
  body?: CreatePostBody & { externalId: string };
  idempotencyKey?: string;
  /** edit / reschedule: the PATCH body. */
  patch?: Record<string, unknown>;
}

/** `plan --out`: what apply makes, tied to the file and the service state it was planned against. */
export interface SavedPlan {
  format: typeof FORMAT;
  version: 1;
  baseUrl: string;
  workspaceId: string;
  calendar: string;
  createdAt: string;
  fileSha256: string;
  stateFingerprint: string;
  items: SavedPlanItem[];
}

export class SavedPlanError extends Error {
  override name = 'SavedPlanError';
}

export interface SavedPlanInput {
  baseUrl: string;
  workspaceId: string;
  calendar: string;
  /** Injected, so a test's plan does not depend on the clock. */
  now: Date;
  fileSha256: string;
  state: ServiceState;
  items: PlanItem[];
}

/** The saved form of a plan: its changes (unchanged entries need nothing), each create keyed. */
export function savedPlanOf(input: SavedPlanInput): SavedPlan {
  const items: SavedPlanItem[] = [];
  for (const item of input.items) {
    if (item.kind === 'unchanged') continue;
    const saved: SavedPlanItem = { kind: item.kind, externalId: item.externalId };
    if (item.post) saved.postId = item.post.id;
    if (item.kind === 'create' && item.desired) {
      saved.body = item.desired.body;
      const generation = generationOfCreate(input.state, input.items, item.externalId);
      saved.idempotencyKey = idempotencyKeyFor(input.workspaceId, item.externalId, generation);
    }
    if (item.patch) saved.patch = item.patch;
    items.push(saved);
  }
  return {
    format: FORMAT,
    version: 1,
    baseUrl: input.baseUrl,
    workspaceId: input.workspaceId,
    calendar: input.calendar,
    createdAt: input.now.toISOString(),
    fileSha256: input.fileSha256,
    stateFingerprint: fingerprintState(input.state),
    items,
  };
}

export function sha256Hex(contents: string | Uint8Array): string {
  return createHash('sha256').update(contents).digest('hex');
}

/**
 * One hash of every post the plan was computed from (managed, bound, others): its id, version and
 * status. Any write that could change the plan changes it, so apply can tell the plan is stale.
 */
export function fingerprintState(state: ServiceState): string {
  const lines = new Set<string>();
  for (const post of [...state.managed, ...state.bound, ...state.others]) {
    lines.add(`${post.id}:${versionOf(post)}:${post.status}`);
  }
  return sha256Hex([...lines].sort().join('\n'));
}

/** Statuses whose posts the calendar never changes: only a change of status matters to a plan. */
const SETTLED: ReadonlySet<Post['status']> = new Set([
  'published',
  'failed',
  'cancelled',
  'rejected',
  'awaiting_creator',
]);

/**
 * What changes with every write to the post: its updatedAt (the read does not carry the stored
 * version counter). A settled post's is left out: its metrics refresh writes it daily, and that must
 * not make a saved plan stale.
 */
function versionOf(post: Post): string {
  return SETTLED.has(post.status) ? '-' : post.updatedAt;
}

export interface CurrentPlanContext {
  fileSha256: string;
  stateFingerprint: string;
  workspaceId: string;
  baseUrl: string;
}

/** Null when the saved plan may be applied now; else why not. */
export function checkSavedPlan(saved: SavedPlan, current: CurrentPlanContext): string | null {
  if (normalUrl(saved.baseUrl) !== normalUrl(current.baseUrl)) {
    return `the plan was made against ${saved.baseUrl}, not ${current.baseUrl}`;
  }
  if (saved.workspaceId !== current.workspaceId) {
    return `the plan is for workspace ${saved.workspaceId}, not ${current.workspaceId}`;
  }
  if (saved.fileSha256 !== current.fileSha256) {
    return 'the calendar file changed since the plan: run plan again';
  }
  if (saved.stateFingerprint !== current.stateFingerprint) {
    return 'the service changed since the plan: a post of the calendar or its accounts was created, changed or sent meanwhile; run plan again';
  }
  return null;
}

function normalUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

export function serializeSavedPlan(plan: SavedPlan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

/** Reads a saved plan's text; `source` names it in the error. */
export function parseSavedPlan(text: string, source = 'the plan file'): SavedPlan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SavedPlanError(`${source} is not a saved plan: it is not JSON (write one with plan --out)`);
  }
  if (!isRecord(value) || value.format !== FORMAT) {
    throw new SavedPlanError(`${source} is not a saved plan of social-calendar (write one with plan --out)`);
  }
  if (value.version !== 1) {
    throw new SavedPlanError(
      `${source} is a saved plan of version ${String(value.version)}; this tool reads version 1`,
    );
  }
  for (const key of [
    'baseUrl',
    'workspaceId',
    'calendar',
    'createdAt',
    'fileSha256',
    'stateFingerprint',
  ] as const) {
    if (typeof value[key] !== 'string')
      throw new SavedPlanError(`${source} is not a whole saved plan: ${key} is missing`);
  }
  if (!Array.isArray(value.items) || !value.items.every(isSavedItem)) {
    throw new SavedPlanError(`${source} is not a whole saved plan: its items are not changes`);
  }
  return value as unknown as SavedPlan;
}

const KINDS: ReadonlySet<unknown> = new Set(['create', 'reschedule', 'edit', 'cancel']);

function isSavedItem(value: unknown): boolean {
  if (!isRecord(value) || !KINDS.has(value.kind) || typeof value.externalId !== 'string') return false;
  if (value.kind === 'create') return isRecord(value.body) && typeof value.idempotencyKey === 'string';
  if (typeof value.postId !== 'string') return false;
  return value.kind === 'cancel' || isRecord(value.patch);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function writeSavedPlan(path: string, plan: SavedPlan): Promise<void> {
  await writeFile(path, serializeSavedPlan(plan), 'utf8');
}

export async function readSavedPlan(path: string): Promise<SavedPlan> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = isRecord(error) && typeof error.code === 'string' ? error.code : 'unreadable';
    throw new SavedPlanError(`cannot read the saved plan ${path} (${code})`);
  }
  return parseSavedPlan(text, path);
}
