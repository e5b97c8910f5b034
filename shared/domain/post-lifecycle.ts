import { ConflictError } from './errors.js';
import type { PostStatus, RequestedStatus } from './posts.js';
import { POST_STATUSES } from './posts.js';

/**
 * The post state machine (docs/api-decisions.md#post-lifecycle, docs/post-lifecycle.md). Pure: the caller
 * passes in what it knows (does the workspace require approval, is scheduledAt still ahead, did
 * the content change) and then writes the result with a condition on the status it read, so two
 * racing writers cannot both move one post. The rules are one table, status × event → rule,
 * which the tests and the doc walk; nothing here decides outside that table.
 */

/** Everything that can happen to a post. */
export type PostEvent =
  /** PATCH with a `status`. */
  | { type: 'submit'; requested: RequestedStatus }
  /** PATCH of content, media, postType or scheduledAt without a `status`. */
  | { type: 'edit' }
  /** POST .../approve. */
  | { type: 'approve' }
  /** POST .../reject. */
  | { type: 'reject' }
  /** DELETE. */
  | { type: 'cancel' }
  /** The delivery pipeline: scheduledAt reached. */
  | { type: 'due' }
  /** A worker takes the post for delivery. */
  | { type: 'claim' }
  /** The network accepted the post. */
  | { type: 'succeed' }
  /** A transient error with retries left: back to the queue with a next attempt time. */
  | { type: 'retry' }
  /** A permanent error, or the retries are exhausted. */
  | { type: 'fail' }
  /** The network took the post as a draft in the creator's inbox (TikTok upload to inbox). */
  | { type: 'hand_over' }
  /** The worker holding the post died: back to the queue to be reconciled. */
  | { type: 'lease_expired' };

export type PostEventType = PostEvent['type'];

/**
 * The table's column: an event type, with `submit` split by the requested status because each
 * requested status has its own targets.
 */
export const POST_EVENT_KEYS = [
  'submit:publish',
  'submit:scheduled',
  'submit:draft',
  'edit',
  'approve',
  'reject',
  'cancel',
  'due',
  'claim',
  'succeed',
  'retry',
  'fail',
  'hand_over',
  'lease_expired',
] as const;
export type PostEventKey = (typeof POST_EVENT_KEYS)[number];

/** Events a caller causes through the API; the rest come from the delivery pipeline. */
export const CALLER_EVENT_KEYS = [
  'submit:publish',
  'submit:scheduled',
  'submit:draft',
  'edit',
  'approve',
  'reject',
  'cancel',
] as const satisfies readonly PostEventKey[];

export function eventKey(event: PostEvent): PostEventKey {
  return event.type === 'submit' ? `submit:${event.requested}` : event.type;
}

/** What the caller knows when an event happens. */
export interface TransitionContext {
  /** The workspace's policy `requireApproval`, as it is now. */
  requireApproval: boolean;
  /** Whether the post's scheduledAt is set and later than now (time is the caller's). */
  scheduledAtAhead: boolean;
  /**
   * Whether this request changes content, media, postType or platformOptions. Absent counts as changed: an
   * approval gate must not be passed by leaving a flag out.
   */
  contentChanged?: boolean;
}

export type TransitionFlag = keyof TransitionContext;

export interface TransitionCase {
  /** Flags that must all be true for this case to apply. */
  readonly when: readonly TransitionFlag[];
  readonly to: PostStatus;
}

export interface TransitionRule {
  /** Checked in order; the first whose flags all hold decides. */
  readonly cases?: readonly TransitionCase[];
  /** The target when no case applies. */
  readonly to: PostStatus;
}

export type TransitionTable = Readonly<
  Record<PostStatus, Readonly<Partial<Record<PostEventKey, TransitionRule>>>>
>;

/** An allowed (status, event) pair has a rule; every other pair is 409 `conflict`. */
export const TRANSITIONS: TransitionTable = {
  draft: {
    'submit:publish': { cases: [{ when: ['requireApproval'], to: 'pending_approval' }], to: 'queued' },
    'submit:scheduled': { cases: [{ when: ['requireApproval'], to: 'pending_approval' }], to: 'scheduled' },
    'submit:draft': { to: 'draft' },
    edit: { to: 'draft' },
    cancel: { to: 'cancelled' },
  },
  pending_approval: {
    // Still needs approval: the caller records the requested timing; approve then decides.
    'submit:publish': { to: 'pending_approval' },
    'submit:scheduled': { to: 'pending_approval' },
    // Withdraw from review.
    'submit:draft': { to: 'draft' },
    edit: { to: 'pending_approval' },
    approve: { cases: [{ when: ['scheduledAtAhead'], to: 'scheduled' }], to: 'queued' },
    reject: { to: 'rejected' },
    cancel: { to: 'cancelled' },
  },
  scheduled: {
    // An approved post whose content changes needs approval again, whatever the request's status.
    'submit:publish': {
      cases: [{ when: ['requireApproval', 'contentChanged'], to: 'pending_approval' }],
      to: 'queued',
    },
    'submit:scheduled': {
      cases: [{ when: ['requireApproval', 'contentChanged'], to: 'pending_approval' }],
      to: 'scheduled',
    },
    // Unschedule.
    'submit:draft': { to: 'draft' },
    edit: {
      cases: [{ when: ['requireApproval', 'contentChanged'], to: 'pending_approval' }],
      to: 'scheduled',
    },
    due: { to: 'queued' },
    cancel: { to: 'cancelled' },
  },
  queued: {
    claim: { to: 'publishing' },
    cancel: { to: 'cancelled' },
  },
  publishing: {
    succeed: { to: 'published' },
    retry: { to: 'queued' },
    fail: { to: 'failed' },
    hand_over: { to: 'awaiting_creator' },
    lease_expired: { to: 'queued' },
  },
  published: {},
  failed: {},
  cancelled: {},
  rejected: {},
  // The creator finishes the draft in the network's app, out of our reach: nothing moves it on.
  awaiting_creator: {},
};

/** Create: the requested status, or pending_approval first when the workspace requires approval. */
export const INITIAL_RULES: Readonly<Record<RequestedStatus, TransitionRule>> = {
  publish: { cases: [{ when: ['requireApproval'], to: 'pending_approval' }], to: 'queued' },
  scheduled: { cases: [{ when: ['requireApproval'], to: 'pending_approval' }], to: 'scheduled' },
  draft: { to: 'draft' },
};

/** PATCH (edit or submit) is allowed here (docs/api-decisions.md#post-lifecycle). */
export const EDITABLE_STATUSES = [
  'draft',
  'pending_approval',
  'scheduled',
] as const satisfies readonly PostStatus[];
export type EditableStatus = (typeof EDITABLE_STATUSES)[number];

/** DELETE is allowed here (docs/api-decisions.md#post-lifecycle). */
export const CANCELLABLE_STATUSES = [
  'draft',
  'pending_approval',
  'scheduled',
  'queued',
] as const satisfies readonly PostStatus[];
export type CancellableStatus = (typeof CANCELLABLE_STATUSES)[number];

/** Nothing moves a post out of these. */
export const TERMINAL_STATUSES = [
  'published',
  'failed',
  'cancelled',
  'rejected',
  'awaiting_creator',
] as const satisfies readonly PostStatus[];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export function isTerminal(status: PostStatus): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly PostStatus[]).includes(status);
}

export function initialStatus(requested: RequestedStatus, opts: { requireApproval: boolean }): PostStatus {
  return applyRule(INITIAL_RULES[requested], {
    requireApproval: opts.requireApproval,
    scheduledAtAhead: false,
  });
}

/** The status after `event`, or ConflictError (409 `conflict`) when the current status forbids it. */
export function nextStatus(current: PostStatus, event: PostEvent, ctx: TransitionContext): PostStatus {
  const key = eventKey(event);
  const rule = TRANSITIONS[current][key];
  if (!rule) throw new ConflictError(forbiddenMessage(current, key));
  return applyRule(rule, ctx);
}

/** The events the delivery pipeline causes (after approval and scheduling were decided). */
export type DeliveryEventType =
  | 'due'
  | 'claim'
  | 'succeed'
  | 'retry'
  | 'fail'
  | 'hand_over'
  | 'lease_expired';

/**
 * nextStatus for the delivery pipeline: its rules never depend on approval or on the schedule
 * (a post reaches the pipeline only once both are settled), so no context is needed.
 */
export function nextDeliveryStatus(current: PostStatus, event: DeliveryEventType): PostStatus {
  return nextStatus(current, { type: event }, { requireApproval: false, scheduledAtAhead: false });
}

/** The statuses from which `key` is allowed, in POST_STATUSES order. */
export function statusesAllowing(key: PostEventKey): PostStatus[] {
  return POST_STATUSES.filter((status) => TRANSITIONS[status][key] !== undefined);
}

function applyRule(rule: TransitionRule, ctx: TransitionContext): PostStatus {
  const flags: Record<TransitionFlag, boolean> = {
    requireApproval: ctx.requireApproval,
    scheduledAtAhead: ctx.scheduledAtAhead,
    contentChanged: ctx.contentChanged ?? true,
  };
  const match = rule.cases?.find((c) => c.when.every((flag) => flags[flag]));
  return match ? match.to : rule.to;
}

const SUBJECTS: Readonly<Record<PostStatus, string>> = {
  draft: 'A draft post',
  pending_approval: 'A post awaiting approval',
  scheduled: 'A scheduled post',
  queued: 'A queued post',
  publishing: 'A post being published',
  published: 'A published post',
  failed: 'A failed post',
  cancelled: 'A cancelled post',
  rejected: 'A rejected post',
  awaiting_creator: 'A post awaiting its creator',
};

const VERBS: Readonly<Record<PostEventKey, string>> = {
  'submit:publish': 'be submitted with status publish',
  'submit:scheduled': 'be submitted with status scheduled',
  'submit:draft': 'be moved back to draft',
  edit: 'be edited',
  approve: 'be approved',
  reject: 'be rejected',
  cancel: 'be cancelled',
  due: 'become due',
  claim: 'be claimed for delivery',
  succeed: 'be marked published',
  retry: 'be re-queued for a retry',
  fail: 'be marked failed',
  hand_over: 'be handed over to its creator',
  lease_expired: 'be re-queued after a lost delivery lease',
};

/** E.g. "A published post cannot be cancelled. Allowed in status draft, pending_approval, scheduled, queued." */
export function forbiddenMessage(current: PostStatus, key: PostEventKey): string {
  return `${SUBJECTS[current]} cannot ${VERBS[key]}. Allowed in status ${statusesAllowing(key).join(', ')}.`;
}

/** What starts a transition, in the words of the API (for the doc and for people). */
export const TRIGGERS: Readonly<Record<PostEventKey, string>> = {
  'submit:publish': 'PATCH status publish',
  'submit:scheduled': 'PATCH status scheduled',
  'submit:draft': 'PATCH status draft',
  edit: 'PATCH without status',
  approve: 'approve',
  reject: 'reject',
  cancel: 'DELETE',
  due: 'scheduledAt reached',
  claim: 'worker claims it',
  succeed: 'network accepts',
  retry: 'transient error, retries left',
  fail: 'permanent error or retries exhausted',
  hand_over: "network takes it as a draft in the creator's inbox",
  lease_expired: 'worker lease expired',
};

export const CREATE_TRIGGERS: Readonly<Record<RequestedStatus, string>> = {
  publish: 'create, status publish',
  scheduled: 'create, status scheduled',
  draft: 'create, status draft',
};

/** One row of the table as people read it; `from` null is a create. */
export interface TransitionDescription {
  from: PostStatus | null;
  /** The event key, or `create:<requested>` for a create. */
  on: PostEventKey | `create:${RequestedStatus}`;
  trigger: string;
  /** `if a and b`, `otherwise`, or empty when the rule has no cases. */
  condition: string;
  to: PostStatus;
}

/** Every transition, creates first, then by status and event in table order. */
export function describeTransitions(): TransitionDescription[] {
  const rows: TransitionDescription[] = [];
  for (const requested of Object.keys(INITIAL_RULES) as RequestedStatus[]) {
    for (const outcome of ruleOutcomes(INITIAL_RULES[requested])) {
      rows.push({ from: null, on: `create:${requested}`, trigger: CREATE_TRIGGERS[requested], ...outcome });
    }
  }
  for (const from of POST_STATUSES) {
    for (const on of POST_EVENT_KEYS) {
      const rule = TRANSITIONS[from][on];
      if (!rule) continue;
      for (const outcome of ruleOutcomes(rule)) rows.push({ from, on, trigger: TRIGGERS[on], ...outcome });
    }
  }
  return rows;
}

function ruleOutcomes(rule: TransitionRule): { condition: string; to: PostStatus }[] {
  const cases = rule.cases ?? [];
  return [
    ...cases.map((c) => ({ condition: `if ${c.when.join(' and ')}`, to: c.to })),
    { condition: cases.length > 0 ? 'otherwise' : '', to: rule.to },
  ];
}
