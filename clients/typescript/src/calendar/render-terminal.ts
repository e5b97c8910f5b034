import { styleText } from 'node:util';
import type { ForecastRow } from './forecast.js';
import type { PlanItem } from './model.js';
import {
  localTimeOf,
  needsApproval,
  type PlanReport,
  problemLines,
  summarize,
  summaryLine,
  timeOfItem,
  utcTimeOf,
  validationOf,
} from './plan-report.js';

export interface TerminalOptions {
  /** Colours; the CLI passes true for a TTY without NO_COLOR. */
  color?: boolean;
  /** List unchanged entries too (otherwise only counted). */
  verbose?: boolean;
}

type Style = Parameters<typeof styleText>[0];

/** The plan for a terminal: one line per change with its problems, the forecast, the summary. */
export function renderTerminal(report: PlanReport, options: TerminalOptions = {}): string {
  // The CLI decides on colour (TTY, NO_COLOR); styleText must not second-guess it from stdout.
  const paint = (style: Style, text: string) =>
    options.color ? styleText(style, text, { validateStream: false }) : text;
  const lines: string[] = [];
  for (const item of report.items) {
    if (item.kind === 'unchanged' && !options.verbose) continue;
    lines.push(itemLine(item, paint));
    for (const detail of detailLines(report, item))
      lines.push(`    ${detail.startsWith('!') ? paint('red', detail) : paint('yellow', detail)}`);
  }
  if (lines.length > 0) lines.push('');
  if (report.forecast.length > 0) {
    lines.push(paint('bold', 'Quota forecast (UTC days):'));
    lines.push(...forecastTable(report.forecast, paint));
    lines.push('');
  }
  lines.push(paint('bold', summaryLine(report.summary ?? summarize(report.items))));
  return `${lines.join('\n')}\n`;
}

type Paint = (style: Style, text: string) => string;

const MARKS: Record<PlanItem['kind'], { mark: string; style: Style }> = {
  create: { mark: '+ create    ', style: 'green' },
  reschedule: { mark: '~ reschedule', style: 'yellow' },
  edit: { mark: '~ edit      ', style: 'yellow' },
  cancel: { mark: '- cancel    ', style: 'red' },
  unchanged: { mark: '  unchanged ', style: 'dim' },
};

function itemLine(item: PlanItem, paint: Paint): string {
  const { mark, style } = MARKS[item.kind];
  const parts = [paint(style, mark), item.externalId, whenOf(item)];
  if (item.kind === 'edit' && item.changedFields.length > 0)
    parts.push(`changes ${item.changedFields.join(', ')}`);
  if (item.kind === 'unchanged' && item.changedFields.length > 0)
    parts.push(`differs in ${item.changedFields.join(', ')}`);
  const target = item.desired?.body ?? item.post;
  if (target) parts.push(`${target.platform} ${target.accountId}`);
  if (item.note) parts.push(paint('dim', `(${item.note})`));
  return parts.join('  ');
}

/** UTC, and the entry's local time with where it came from; a reschedule shows old → new. */
function whenOf(item: PlanItem): string {
  const local = localTimeOf(item);
  const shown = `${utcTimeOf(timeOfItem(item))}${local ? ` (${local})` : ''}`;
  if (item.kind === 'reschedule' && item.post) return `${utcTimeOf(item.post.scheduledAt)} → ${shown}`;
  return shown;
}

function detailLines(report: PlanReport, item: PlanItem): string[] {
  const validation = validationOf(report, item);
  if (!validation) return [];
  const lines = problemLines(validation).map((line) => `! ${line}`);
  if (needsApproval(validation)) lines.push('needs approval');
  return lines;
}

function forecastTable(rows: ForecastRow[], paint: Paint): string[] {
  const header = ['day', 'account', 'calendar', 'scheduled', 'used today', 'limit', ''];
  const cells = rows.map((row) => [
    row.day,
    `${row.account} (${row.platform})`,
    String(row.calendar),
    String(row.alreadyScheduled),
    row.usedToday === undefined ? '' : String(row.usedToday),
    String(row.limit),
    row.over ? 'OVER THE LIMIT' : '',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]?.length ?? 0)),
  );
  const format = (line: string[]) =>
    `  ${line
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd()}`;
  return [
    paint('dim', format(header)),
    ...cells.map((line, index) => (rows[index]?.over ? paint('red', format(line)) : format(line))),
  ];
}
