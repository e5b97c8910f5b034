import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type CalendarFormat,
  formatFromPath,
  parseCalendar,
  writeCalendar,
} from '../calendar/calendar-file.js';
import type { CalendarFile } from '../calendar/model.js';
import { planHasErrors, summarize } from '../calendar/plan-report.js';
import { renderMarkdown } from '../calendar/render-markdown.js';
import { renderTerminal } from '../calendar/render-terminal.js';
import {
  checkSavedPlan,
  fingerprintState,
  readSavedPlan,
  savedPlanOf,
  sha256Hex,
  writeSavedPlan,
} from '../calendar/saved-plan.js';
import { createClient } from '../client.js';
import { applyChanges } from './apply.js';
import { makeCalendarService } from './calendar-service.js';
import { describeFailure, UsageError } from './describe-failure.js';
import { makePlan } from './make-plan.js';
import type { ProgressStream } from './progress.js';
import { pullCalendar } from './pull.js';

/** What the CLI touches of the world, so a test can run it in-process as well as a child process. */
export interface CliIo {
  stdout: ProgressStream;
  stderr: ProgressStream;
  env: Readonly<Record<string, string | undefined>>;
  now: () => Date;
}

/** terraform plan -detailed-exitcode: 0 nothing to do, 2 changes to make, 1 an error. */
export const EXIT = { ok: 0, error: 1, changes: 2 } as const;

export const USAGE = `social-calendar: keep a posting calendar in a file and apply it to the Social Publishing API

  social-calendar pull  --workspace <wks_…> [--from <time>] [--to <time>] [--calendar <name>] [--format yaml|json|csv]
  social-calendar plan  <calendar.yaml|.json|.csv> --workspace <wks_…> [--markdown] [--out <plan.json>] [--verbose]
  social-calendar apply <calendar.yaml|.json|.csv> --workspace <wks_…> [--plan <plan.json>]

The service and key: --base-url and --api-key, or SOCIAL_PUBLISHING_URL and SOCIAL_PUBLISHING_API_KEY.
plan exits 0 when nothing would change, 2 when something would, 1 on an error (a refused change,
a day over an account's daily limit, a bad file). docs/calendars.md has a worked example.`;

const OPTIONS = {
  workspace: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  calendar: { type: 'string' },
  format: { type: 'string' },
  markdown: { type: 'boolean' },
  out: { type: 'string' },
  plan: { type: 'string' },
  verbose: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
    const [command, ...files] = positionals;
    if (values.help || command === undefined || command === 'help') {
      io.stdout.write(`${USAGE}\n`);
      return values.help || command === 'help' ? EXIT.ok : EXIT.error;
    }
    switch (command) {
      case 'pull':
        return await pull(values, io);
      case 'plan':
        return await plan(values, onlyFile(files), io);
      case 'apply':
        return await apply(values, onlyFile(files), io);
      default:
        throw new UsageError(`unknown command ${command}: pull, plan or apply`);
    }
  } catch (error) {
    io.stderr.write(`${describeFailure(error)}\n`);
    return EXIT.error;
  }
}

function onlyFile(files: string[]): string {
  if (files.length !== 1 || files[0] === undefined) throw new UsageError('name one calendar file');
  return files[0];
}

function serviceOf(values: Values, io: CliIo) {
  const baseUrl = values['base-url'] ?? io.env.SOCIAL_PUBLISHING_URL;
  const apiKey = values['api-key'] ?? io.env.SOCIAL_PUBLISHING_API_KEY;
  if (!baseUrl) throw new UsageError('the service: --base-url or SOCIAL_PUBLISHING_URL');
  if (!apiKey) throw new UsageError('the key: --api-key or SOCIAL_PUBLISHING_API_KEY');
  if (!values.workspace) throw new UsageError('the workspace: --workspace wks_…');
  return {
    baseUrl,
    workspaceId: values.workspace,
    service: makeCalendarService(createClient({ baseUrl, apiKey }), values.workspace),
  };
}

async function readCalendar(path: string, values: Values): Promise<{ file: CalendarFile; sha256: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`cannot read ${path}`);
  }
  const calendar = values.calendar ?? basename(path, extname(path));
  return { file: parseCalendar(text, formatFromPath(path), { calendar }), sha256: sha256Hex(text) };
}

async function pull(values: Values, io: CliIo): Promise<number> {
  const { service } = serviceOf(values, io);
  const format = (values.format ?? 'yaml') as CalendarFormat;
  if (!['yaml', 'json', 'csv'].includes(format)) throw new UsageError('--format: yaml, json or csv');
  const file = await pullCalendar(service, values.calendar ?? 'calendar', {
    ...(values.from && { from: instantOf(values.from, '--from') }),
    ...(values.to && { to: instantOf(values.to, '--to') }),
  });
  io.stdout.write(writeCalendar(file, format));
  return EXIT.ok;
}

async function plan(values: Values, path: string, io: CliIo): Promise<number> {
  const { service, baseUrl, workspaceId } = serviceOf(values, io);
  const { file, sha256 } = await readCalendar(path, values);
  const now = io.now();
  const planned = await makePlan(service, file, now);
  const color = Boolean(io.stdout.isTTY) && !values['no-color'] && io.env.NO_COLOR === undefined;
  io.stdout.write(
    values.markdown
      ? renderMarkdown(planned.report, { verbose: Boolean(values.verbose) })
      : renderTerminal(planned.report, { color, verbose: Boolean(values.verbose) }),
  );
  if (values.out) {
    await writeSavedPlan(
      values.out,
      savedPlanOf({ baseUrl, workspaceId, now, fileSha256: sha256, ...planned }),
    );
    io.stderr.write(
      `Saved the plan to ${values.out}: social-calendar apply ${path} --workspace ${workspaceId} --plan ${values.out} makes it.\n`,
    );
  }
  if (planHasErrors(planned.report)) return EXIT.error;
  const { unchanged: _unchanged, ...changes } = summarize(planned.items);
  return Object.values(changes).some((count) => count > 0) ? EXIT.changes : EXIT.ok;
}

async function apply(values: Values, path: string, io: CliIo): Promise<number> {
  const { service, baseUrl, workspaceId } = serviceOf(values, io);
  const { file, sha256 } = await readCalendar(path, values);
  const now = io.now();
  let items: Parameters<typeof applyChanges>[1];
  if (values.plan) {
    // A saved plan is made as planned, or not at all: nothing may have moved since.
    const saved = await readSavedPlan(values.plan);
    const state = await service.readState(file, now);
    const stale = checkSavedPlan(saved, {
      fileSha256: sha256,
      stateFingerprint: fingerprintState(state),
      workspaceId,
      baseUrl,
    });
    if (stale) throw new UsageError(`not applied: ${stale}`);
    items = saved.items;
  } else {
    const planned = await makePlan(service, file, now);
    if (planHasErrors(planned.report)) {
      io.stdout.write(renderTerminal(planned.report, { color: false }));
      throw new UsageError('not applied: the plan has errors (above); nothing was changed');
    }
    items = savedPlanOf({ baseUrl, workspaceId, now, fileSha256: sha256, ...planned }).items;
  }
  const outcome = await applyChanges(service, items, io.stderr);
  if (outcome.failure) {
    io.stderr.write(
      `Stopped after ${outcome.done} of ${outcome.total} changes: ${outcome.failure.item.kind} ${outcome.failure.item.externalId}: ${describeFailure(outcome.failure.error)}\nRun apply again to complete it: the changes made are not made twice.\n`,
    );
    return EXIT.error;
  }
  io.stdout.write(`Applied ${outcome.done} change${outcome.done === 1 ? '' : 's'}.\n`);
  return EXIT.ok;
}

function instantOf(text: string, option: string): string {
  const at = Date.parse(text);
  if (Number.isNaN(at))
    throw new UsageError(`${option}: an ISO 8601 time, e.g. 2026-12-01 or 2026-12-01T09:00:00Z`);
  return new Date(at).toISOString();
}
