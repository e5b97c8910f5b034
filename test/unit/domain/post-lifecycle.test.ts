import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../shared/domain/errors.js';
import {
  CALLER_EVENT_KEYS,
  CANCELLABLE_STATUSES,
  describeTransitions,
  EDITABLE_STATUSES,
  eventKey,
  initialStatus,
  isTerminal,
  nextStatus,
  POST_EVENT_KEYS,
  type PostEvent,
  type PostEventKey,
  statusesAllowing,
  TERMINAL_STATUSES,
  TRANSITIONS,
  type TransitionContext,
  type TransitionDescription,
} from '../../../shared/domain/post-lifecycle.js';
import { POST_STATUSES, type PostStatus, REQUESTED_STATUSES } from '../../../shared/domain/posts.js';

type Flags = Partial<Record<'requireApproval' | 'scheduledAtAhead' | 'contentChanged', boolean>>;

/**
 * Every allowed transition, written out by hand from docs/api-decisions.md and the decisions in
 * docs/post-lifecycle.md, independently of the code's table. A flag left out means "either value";
 * the rows of one (status, event) pair together cover every context exactly once (checked below).
 */
const ALLOWED: ReadonlyArray<readonly [PostStatus, PostEventKey, Flags, PostStatus]> = [
  ['draft', 'submit:publish', { requireApproval: false }, 'queued'],
  ['draft', 'submit:publish', { requireApproval: true }, 'pending_approval'],
  ['draft', 'submit:scheduled', { requireApproval: false }, 'scheduled'],
  ['draft', 'submit:scheduled', { requireApproval: true }, 'pending_approval'],
  ['draft', 'submit:draft', {}, 'draft'],
  ['draft', 'edit', {}, 'draft'],
  ['draft', 'cancel', {}, 'cancelled'],

  ['pending_approval', 'submit:publish', {}, 'pending_approval'],
  ['pending_approval', 'submit:scheduled', {}, 'pending_approval'],
  ['pending_approval', 'submit:draft', {}, 'draft'],
  ['pending_approval', 'edit', {}, 'pending_approval'],
  ['pending_approval', 'approve', { scheduledAtAhead: true }, 'scheduled'],
  ['pending_approval', 'approve', { scheduledAtAhead: false }, 'queued'],
  ['pending_approval', 'reject', {}, 'rejected'],
  ['pending_approval', 'cancel', {}, 'cancelled'],

  ['scheduled', 'submit:publish', { requireApproval: true, contentChanged: true }, 'pending_approval'],
  ['scheduled', 'submit:publish', { requireApproval: true, contentChanged: false }, 'queued'],
  ['scheduled', 'submit:publish', { requireApproval: false }, 'queued'],
  ['scheduled', 'submit:scheduled', { requireApproval: true, contentChanged: true }, 'pending_approval'],
  ['scheduled', 'submit:scheduled', { requireApproval: true, contentChanged: false }, 'scheduled'],
  ['scheduled', 'submit:scheduled', { requireApproval: false }, 'scheduled'],
  ['scheduled', 'submit:draft', {}, 'draft'],
  ['scheduled', 'edit', { requireApproval: true, contentChanged: true }, 'pending_approval'],
  ['scheduled', 'edit', { requireApproval: true, contentChanged: false }, 'scheduled'],
  ['scheduled', 'edit', { requireApproval: false }, 'scheduled'],
  ['scheduled', 'due', {}, 'queued'],
  ['scheduled', 'cancel', {}, 'cancelled'],

  ['queued', 'claim', {}, 'publishing'],
  ['queued', 'cancel', {}, 'cancelled'],

  ['publishing', 'succeed', {}, 'published'],
  ['publishing', 'retry', {}, 'queued'],
  ['publishing', 'fail', {}, 'failed'],
  ['publishing', 'hand_over', {}, 'awaiting_creator'],
  ['publishing', 'lease_expired', {}, 'queued'],
];

/** Every context a caller can pass, including contentChanged left out. */
const CONTEXTS: TransitionContext[] = [false, true].flatMap((requireApproval) =>
  [false, true].flatMap((scheduledAtAhead) =>
    [false, true, undefined].map((contentChanged) => ({ requireApproval, scheduledAtAhead, contentChanged })),
  ),
);

/** Absent contentChanged counts as changed (fail closed on the approval gate). */
function matches(flags: Flags, ctx: TransitionContext): boolean {
  return (
    (flags.requireApproval === undefined || flags.requireApproval === ctx.requireApproval) &&
    (flags.scheduledAtAhead === undefined || flags.scheduledAtAhead === ctx.scheduledAtAhead) &&
    (flags.contentChanged === undefined || flags.contentChanged === (ctx.contentChanged ?? true))
  );
}

function toEvent(key: PostEventKey): PostEvent {
  switch (key) {
    case 'submit:publish':
      return { type: 'submit', requested: 'publish' };
    case 'submit:scheduled':
      return { type: 'submit', requested: 'scheduled' };
    case 'submit:draft':
      return { type: 'submit', requested: 'draft' };
    default:
      return { type: key };
  }
}

function pairKey(status: PostStatus, key: PostEventKey): string {
  return `${status} ${key}`;
}

const ALLOWED_PAIRS = new Set(ALLOWED.map(([from, on]) => pairKey(from, on)));
const FORBIDDEN: Array<[PostStatus, PostEventKey]> = POST_STATUSES.flatMap((status) =>
  POST_EVENT_KEYS.filter((key) => !ALLOWED_PAIRS.has(pairKey(status, key))).map(
    (key): [PostStatus, PostEventKey] => [status, key],
  ),
);

/** The error `act` throws; fails the test when it throws nothing. */
function thrownBy(act: () => unknown): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('initialStatus', () => {
  it.each([
    ['publish', false, 'queued'],
    ['publish', true, 'pending_approval'],
    ['scheduled', false, 'scheduled'],
    ['scheduled', true, 'pending_approval'],
    ['draft', false, 'draft'],
    ['draft', true, 'draft'],
  ] as const)(
    'creates a post with status %s (requireApproval %s) as %s',
    (requested, requireApproval, expected) => {
      expect(initialStatus(requested, { requireApproval })).toBe(expected);
    },
  );

  it('has a row above for every requested status and approval setting', () => {
    expect(REQUESTED_STATUSES.length * 2).toBe(6);
  });
});

describe('eventKey', () => {
  it('splits submit by the requested status and keeps every other event type', () => {
    expect(eventKey({ type: 'submit', requested: 'scheduled' })).toBe('submit:scheduled');
    expect(eventKey({ type: 'lease_expired' })).toBe('lease_expired');
    expect(POST_EVENT_KEYS.map((key) => eventKey(toEvent(key)))).toEqual([...POST_EVENT_KEYS]);
  });
});

describe('nextStatus: allowed transitions', () => {
  it.each(ALLOWED)('moves %s on %s with %o to %s', (from, on, flags, to) => {
    const contexts = CONTEXTS.filter((ctx) => matches(flags, ctx));
    expect(contexts.length).toBeGreaterThan(0);

    for (const ctx of contexts) {
      // Act
      const status = nextStatus(from, toEvent(on), ctx);

      // Assess
      expect({ ctx, status }).toEqual({ ctx, status: to });
    }
  });

  it('lists one rule in the code for exactly the pairs listed above', () => {
    const codePairs = POST_STATUSES.flatMap((status) =>
      POST_EVENT_KEYS.filter((key) => TRANSITIONS[status][key] !== undefined).map((key) =>
        pairKey(status, key),
      ),
    );

    expect(new Set(codePairs)).toEqual(ALLOWED_PAIRS);
  });

  it.each([...ALLOWED_PAIRS])('covers every context exactly once for %s', (pair) => {
    const rows = ALLOWED.filter(([from, on]) => pairKey(from, on) === pair);

    for (const ctx of CONTEXTS) {
      expect({ ctx, matching: rows.filter(([, , flags]) => matches(flags, ctx)).length }).toEqual({
        ctx,
        matching: 1,
      });
    }
  });

  it('treats an absent contentChanged as changed, so an approved post cannot skip re-approval', () => {
    const ctx = { requireApproval: true, scheduledAtAhead: true };

    expect(nextStatus('scheduled', { type: 'edit' }, ctx)).toBe('pending_approval');
    expect(nextStatus('scheduled', { type: 'submit', requested: 'publish' }, ctx)).toBe('pending_approval');
    expect(nextStatus('scheduled', { type: 'submit', requested: 'scheduled' }, ctx)).toBe('pending_approval');
  });

  it('keeps an approved scheduled post scheduled when only its time changes', () => {
    const ctx = { requireApproval: true, scheduledAtAhead: true, contentChanged: false };

    expect(nextStatus('scheduled', { type: 'edit' }, ctx)).toBe('scheduled');
  });
});

describe('nextStatus: forbidden transitions', () => {
  it('forbids every pair the allowed list leaves out', () => {
    expect(FORBIDDEN.length + ALLOWED_PAIRS.size).toBe(POST_STATUSES.length * POST_EVENT_KEYS.length);
    expect(FORBIDDEN.length).toBeGreaterThan(0);
  });

  it.each(FORBIDDEN)('answers 409 conflict for a %s post on %s, in every context', (from, on) => {
    for (const ctx of CONTEXTS) {
      // Act
      const error = thrownBy(() => nextStatus(from, toEvent(on), ctx));

      // Assess
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ status: 409, code: 'conflict' });
      expect((error as ConflictError).message).toMatch(
        /^A [a-z ]+ cannot [a-z -]+\. Allowed in status [a-z_, ]+\.$/,
      );
    }
  });

  it.each<[PostStatus, PostEvent, string]>([
    [
      'published',
      { type: 'cancel' },
      'A published post cannot be cancelled. Allowed in status draft, pending_approval, scheduled, queued.',
    ],
    [
      'publishing',
      { type: 'cancel' },
      'A post being published cannot be cancelled. Allowed in status draft, pending_approval, scheduled, queued.',
    ],
    [
      'queued',
      { type: 'edit' },
      'A queued post cannot be edited. Allowed in status draft, pending_approval, scheduled.',
    ],
    [
      'queued',
      { type: 'submit', requested: 'draft' },
      'A queued post cannot be moved back to draft. Allowed in status draft, pending_approval, scheduled.',
    ],
    [
      'scheduled',
      { type: 'approve' },
      'A scheduled post cannot be approved. Allowed in status pending_approval.',
    ],
    [
      'rejected',
      { type: 'reject' },
      'A rejected post cannot be rejected. Allowed in status pending_approval.',
    ],
    [
      'failed',
      { type: 'retry' },
      'A failed post cannot be re-queued for a retry. Allowed in status publishing.',
    ],
  ])('tells a %s post on %o which status forbids which action', (from, event, message) => {
    const ctx = { requireApproval: false, scheduledAtAhead: false };

    expect(() => nextStatus(from, event, ctx)).toThrow(message);
  });
});

describe('status sets', () => {
  it('allows PATCH (edit or any submit) on exactly the editable statuses', () => {
    for (const key of ['edit', 'submit:publish', 'submit:scheduled', 'submit:draft'] as const) {
      expect({ key, statuses: statusesAllowing(key) }).toEqual({ key, statuses: [...EDITABLE_STATUSES] });
    }
    expect(EDITABLE_STATUSES).toEqual(['draft', 'pending_approval', 'scheduled']);
  });

  it('allows DELETE on draft, pending_approval, scheduled and queued only', () => {
    expect(statusesAllowing('cancel')).toEqual([...CANCELLABLE_STATUSES]);
    expect(CANCELLABLE_STATUSES).toEqual(['draft', 'pending_approval', 'scheduled', 'queued']);
  });

  it('allows approve and reject only on pending_approval', () => {
    expect(statusesAllowing('approve')).toEqual(['pending_approval']);
    expect(statusesAllowing('reject')).toEqual(['pending_approval']);
  });

  it('calls terminal exactly the statuses without a rule', () => {
    const withoutRules = POST_STATUSES.filter((status) => Object.keys(TRANSITIONS[status]).length === 0);

    expect(withoutRules).toEqual([...TERMINAL_STATUSES]);
    expect(TERMINAL_STATUSES).toEqual(['published', 'failed', 'cancelled', 'rejected', 'awaiting_creator']);
    expect(POST_STATUSES.filter(isTerminal)).toEqual([...TERMINAL_STATUSES]);
  });

  it('names the caller events, and every event is allowed somewhere', () => {
    expect(CALLER_EVENT_KEYS).toEqual([
      'submit:publish',
      'submit:scheduled',
      'submit:draft',
      'edit',
      'approve',
      'reject',
      'cancel',
    ]);
    for (const key of POST_EVENT_KEYS)
      expect({ key, allowed: statusesAllowing(key).length > 0 }).toEqual({ key, allowed: true });
  });
});

describe('the lifecycle as a graph', () => {
  const rows = describeTransitions();
  const edges = rows.filter((row) => row.from !== null) as Array<
    TransitionDescription & { from: PostStatus }
  >;

  function reachable(start: readonly PostStatus[]): Set<PostStatus> {
    const seen = new Set<PostStatus>(start);
    const todo = [...start];
    for (let status = todo.pop(); status !== undefined; status = todo.pop()) {
      for (const edge of edges) {
        if (edge.from === status && !seen.has(edge.to)) {
          seen.add(edge.to);
          todo.push(edge.to);
        }
      }
    }
    return seen;
  }

  it('reaches every status from a create', () => {
    const created = rows.filter((row) => row.from === null).map((row) => row.to);

    expect([...reachable(created)].sort()).toEqual([...POST_STATUSES].sort());
  });

  it('lets every non-terminal status reach a terminal one (no trap)', () => {
    for (const status of POST_STATUSES.filter((s) => !isTerminal(s))) {
      const terminalReached = [...reachable([status])].some(isTerminal);
      expect({ status, terminalReached }).toEqual({ status, terminalReached: true });
    }
  });
});

describe('nextStatus: properties', () => {
  const eventArb = fc.constantFrom(...POST_EVENT_KEYS).map(toEvent);
  const ctxArb = fc.record({
    requireApproval: fc.boolean(),
    scheduledAtAhead: fc.boolean(),
    contentChanged: fc.option(fc.boolean(), { nil: undefined }),
  });

  it('never leaves a terminal status and throws nothing but ConflictError, for any event sequence', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...REQUESTED_STATUSES),
        fc.boolean(),
        fc.array(fc.tuple(eventArb, ctxArb), { maxLength: 40 }),
        (requested, requireApproval, steps) => {
          let status = initialStatus(requested, { requireApproval });

          for (const [event, ctx] of steps) {
            const before = status;
            try {
              status = nextStatus(status, event, ctx);
            } catch (error) {
              if (!(error instanceof ConflictError)) throw error;
            }

            expect(POST_STATUSES).toContain(status);
            if (isTerminal(before)) expect(status).toBe(before);
          }
        },
      ),
    );
  });

  it('never delivers unapproved content in a workspace that requires approval', () => {
    const delivering: readonly PostStatus[] = ['scheduled', 'queued', 'publishing', 'published'];
    /** Walk only allowed events (from the hand-written list) so that runs go deep into the graph. */
    const allowedFrom = (status: PostStatus) =>
      POST_EVENT_KEYS.filter((key) => ALLOWED_PAIRS.has(pairKey(status, key)));

    fc.assert(
      fc.property(
        fc.constantFrom(...REQUESTED_STATUSES),
        fc.array(fc.tuple(fc.nat(), ctxArb), { maxLength: 40 }),
        (requested, steps) => {
          let status = initialStatus(requested, { requireApproval: true });
          let approved = false;
          expect(delivering).not.toContain(status);

          for (const [pick, flags] of steps) {
            const keys = allowedFrom(status);
            const key = keys[pick % Math.max(keys.length, 1)];
            if (key === undefined) break;
            const ctx = { ...flags, requireApproval: true };

            // Act
            status = nextStatus(status, toEvent(key), ctx);

            // Assess: content changes with every edit or submit unless the caller says it did not.
            const changesContent = key === 'edit' || key.startsWith('submit:');
            if (key === 'approve') approved = true;
            else if (changesContent && ctx.contentChanged !== false) approved = false;
            if (status === 'draft' || status === 'pending_approval') approved = false;
            if (delivering.includes(status))
              expect({ key, status, approved }).toEqual({ key, status, approved: true });
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('docs/post-lifecycle.md', () => {
  const doc = readFileSync(new URL('../../../docs/post-lifecycle.md', import.meta.url), 'utf8');
  const rows = describeTransitions();

  it('draws exactly the transitions of the table', () => {
    const block = /```mermaid\n([\s\S]*?)```/.exec(doc)?.[1];

    expect(block).toBe(renderMermaid(rows));
  });

  it('lists exactly the transitions of the table', () => {
    const lines = (doc.split('\n## Transitions\n')[1] ?? '').split('\n');
    const start = lines.findIndex((line) => line.startsWith('|'));
    const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
    const tableRows = lines.slice(start + 2, end).map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );

    expect(tableRows).toEqual(rows.map((row) => [row.from ?? '—', row.trigger, row.condition, row.to]));
  });
});

/**
 * The diagram in the doc: one arrow per (from, to) labelled with its events (`submit publish`,
 * `create draft`, ...) and, in brackets, the flags a case needs; terminal statuses end. Mermaid
 * labels may not hold `:` or `;`.
 */
function renderMermaid(rows: readonly TransitionDescription[]): string {
  const arrows = new Map<string, string[]>();
  for (const row of rows) {
    const arrow = `${row.from ?? '[*]'} --> ${row.to}`;
    const event = row.on.replace(':', ' ');
    const label = row.condition.startsWith('if ') ? `${event} [${row.condition.slice(3)}]` : event;
    arrows.set(arrow, [...(arrows.get(arrow) ?? []), label]);
  }
  return [
    'stateDiagram-v2',
    ...[...arrows].map(([arrow, labels]) => `  ${arrow}: ${labels.join(', ')}`),
    ...TERMINAL_STATUSES.map((status) => `  ${status} --> [*]`),
    '',
  ].join('\n');
}
