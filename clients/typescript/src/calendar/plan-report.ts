import type { Schemas } from '../types.js';
import type { ForecastRow } from './forecast.js';
import type { ChangeKind, PlanItem } from './model.js';

/** validatePost's answer for one planned create or edit. */
export type Validation = Schemas['PostValidation'];

export type PlanSummary = Record<ChangeKind, number>;

/** What both renderers show: the plan, what the service said of each change, the forecast. */
export interface PlanReport {
  items: PlanItem[];
  /** By externalId; only changes that write a post (create, edit, reschedule) are looked up. */
  validations: Map<string, Validation>;
  forecast: ForecastRow[];
  /** Counted from items when absent. */
  summary?: PlanSummary;
  /** The calendar's name, for the Markdown heading. */
  calendar?: string;
}

/** The kinds that write a post, and so were checked with validatePost. */
const VALIDATED: ReadonlySet<ChangeKind> = new Set(['create', 'edit', 'reschedule']);

export function summarize(items: PlanItem[]): PlanSummary {
  const summary: PlanSummary = { create: 0, reschedule: 0, edit: 0, cancel: 0, unchanged: 0 };
  for (const item of items) summary[item.kind]++;
  return summary;
}

export function summaryLine(summary: PlanSummary): string {
  return `Plan: ${summary.create} to create, ${summary.reschedule} to reschedule, ${summary.edit} to edit, ${summary.cancel} to cancel, ${summary.unchanged} unchanged.`;
}

/** The validation of an item, when it is a change the service was asked about. */
export function validationOf(
  report: Pick<PlanReport, 'validations'>,
  item: PlanItem,
): Validation | undefined {
  return VALIDATED.has(item.kind) ? report.validations.get(item.externalId) : undefined;
}

/**
 * Whether `plan` must exit 1: a change the service would refuse (rule violations, a policy) or a
 * day over its account's ceiling. An approval to come is not an error.
 */
export function planHasErrors(report: Pick<PlanReport, 'items' | 'validations' | 'forecast'>): boolean {
  const refused = report.items.some((item) => {
    const validation = validationOf(report, item);
    return validation !== undefined && isRefused(validation);
  });
  return refused || report.forecast.some((row) => row.over);
}

export function isRefused(validation: Validation): boolean {
  return !validation.valid || validation.errors.length > 0 || validation.policyViolation !== undefined;
}

/** `2026-12-07 08:00 UTC` (seconds only when set). */
export function utcTimeOf(timestamp: string | null | undefined): string {
  if (!timestamp) return 'no time';
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return timestamp;
  const iso = new Date(ms).toISOString();
  const seconds = iso.slice(17, 19);
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}${seconds === '00' ? '' : `:${seconds}`} UTC`;
}

/** Where the desired time came from, beside its local time: `09:00 Europe/Berlin, slot`. */
export function localTimeOf(item: PlanItem): string | undefined {
  const desired = item.desired;
  if (!desired?.localTime) return undefined;
  const source =
    desired.timeSource === 'fixed' || desired.timeSource === 'none' ? undefined : desired.timeSource;
  return source ? `${desired.localTime}, ${source}` : desired.localTime;
}

/** The time an item is shown at: the desired one, else the post's. */
export function timeOfItem(item: PlanItem): string | null | undefined {
  return item.desired?.body.scheduledAt ?? item.post?.scheduledAt;
}

/** One line per problem the service named: rule violations, then the policy. Never a network's raw text. */
export function problemLines(validation: Validation): string[] {
  const lines = validation.errors.map((error) => `${error.field}: ${error.code}: ${error.message}`);
  if (validation.policyViolation) {
    // The message names the policy and says why: facet and reason again would only repeat it.
    lines.push(`refused: ${validation.policyViolation.message}`);
  }
  return lines;
}

export function needsApproval(validation: Validation | undefined): boolean {
  return validation?.postStatus === 'pending_approval';
}
