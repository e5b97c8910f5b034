import type { PlanItem } from './model.js';
import {
  localTimeOf,
  needsApproval,
  type PlanReport,
  planHasErrors,
  problemLines,
  summarize,
  summaryLine,
  timeOfItem,
  utcTimeOf,
  validationOf,
} from './plan-report.js';

export interface MarkdownOptions {
  /** List unchanged entries in the changes table too. */
  verbose?: boolean;
}

/** The plan as GitHub-flavoured Markdown for a pull-request comment. */
export function renderMarkdown(report: PlanReport, options: MarkdownOptions = {}): string {
  const summary = report.summary ?? summarize(report.items);
  const title = report.calendar ? `Calendar plan: \`${report.calendar}\`` : 'Calendar plan';
  const out: string[] = [`## ${title}`, '', `**${summaryLine(summary)}**`];
  if (planHasErrors(report))
    out.push('', '> [!CAUTION]', '> This plan has problems: `apply` would not make every change.');

  const shown = report.items.filter((item) => item.kind !== 'unchanged' || options.verbose);
  if (shown.length > 0) {
    out.push(
      '',
      '### Changes',
      '',
      '| Change | Entry | When (UTC) | Local time | Post | Notes |',
      '|---|---|---|---|---|---|',
    );
    for (const item of shown) out.push(changeRow(report, item));
  }

  const problems = shown.flatMap((item) => problemItems(report, item));
  if (problems.length > 0) out.push('', '### Problems', '', ...problems);

  if (report.forecast.length > 0) {
    out.push(
      '',
      '### Quota forecast',
      '',
      '| Day (UTC) | Account | Calendar | Already scheduled | Used today | Limit | |',
      '|---|---|---:|---:|---:|---:|---|',
    );
    for (const row of report.forecast) {
      out.push(
        tableRow([
          row.day,
          `${row.account} (${row.platform})`,
          String(row.calendar),
          String(row.alreadyScheduled),
          row.usedToday === undefined ? '' : String(row.usedToday),
          String(row.limit),
          row.over ? '**over the limit**' : '',
        ]),
      );
    }
  }
  return `${out.join('\n')}\n`;
}

const LABELS: Record<PlanItem['kind'], string> = {
  create: '➕ create',
  reschedule: '🕒 reschedule',
  edit: '✏️ edit',
  cancel: '➖ cancel',
  unchanged: 'unchanged',
};

function changeRow(report: PlanReport, item: PlanItem): string {
  const when =
    item.kind === 'reschedule' && item.post
      ? `${utcTimeOf(item.post.scheduledAt)} → ${utcTimeOf(timeOfItem(item))}`
      : utcTimeOf(timeOfItem(item));
  const target = item.desired?.body ?? item.post;
  const notes: string[] = [];
  // A reschedule's one field is its When column already.
  if (item.changedFields.length > 0 && item.kind !== 'create' && item.kind !== 'reschedule')
    notes.push(`fields: ${item.changedFields.join(', ')}`);
  if (item.note) notes.push(item.note);
  const validation = validationOf(report, item);
  if (validation && problemLines(validation).length > 0) notes.push('**refused** (see Problems)');
  if (needsApproval(validation)) notes.push('needs approval');
  return tableRow([
    LABELS[item.kind],
    `\`${item.externalId}\``,
    when,
    localTimeOf(item) ?? '',
    target ? `${target.platform} ${target.accountId}` : '',
    notes.join('; '),
  ]);
}

function problemItems(report: PlanReport, item: PlanItem): string[] {
  const validation = validationOf(report, item);
  if (!validation) return [];
  return problemLines(validation).map((line) => `- \`${item.externalId}\` (${item.kind}): ${inline(line)}`);
}

function tableRow(cells: string[]): string {
  return `| ${cells.map(inline).join(' | ')} |`;
}

/** Table cells and list items hold one line; a pipe would end the cell. */
function inline(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}
