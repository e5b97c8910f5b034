import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { type CalendarDefaults, readCalendarDocument } from './calendar-document.js';
import { CalendarFileError, type CalendarProblem } from './calendar-error.js';
import type { CalendarEntry, CalendarFile } from './model.js';

/**
 * A calendar as a spreadsheet: one row per entry under a header row. A CSV file has no place for
 * the calendar's name, zone, horizon or slots: the name and zone come from the caller (the CLI's
 * --calendar, or the file's base name), the horizon is the default, and there are no slots, so an
 * entry without a time is a timeless draft (or an error, when scheduled). Written from a calendar
 * that has slots, the slots are left out: keep such a calendar in YAML or JSON.
 */
export const CSV_COLUMNS = [
  'key',
  'platform',
  'accountId',
  'postType',
  'status',
  'at',
  'timezone',
  'repeatRule',
  'repeatStart',
  'postId',
  'content',
  'contentItems',
  'media',
  'platformOptions',
  'firstComment',
  'link',
] as const;
type Column = (typeof CSV_COLUMNS)[number];

/** Plain-text cells, copied as they are when not empty. */
const TEXT_COLUMNS = [
  'key',
  'platform',
  'accountId',
  'postType',
  'status',
  'at',
  'timezone',
  'postId',
] as const;
/** Cells holding the API's JSON (a thread's or carousel's parts in `contentItems`). */
const JSON_COLUMNS = ['contentItems', 'media', 'platformOptions', 'firstComment', 'link'] as const;
const REQUIRED_COLUMNS: readonly Column[] = ['key', 'platform', 'accountId', 'postType'];

function isColumn(name: string): name is Column {
  return (CSV_COLUMNS as readonly string[]).includes(name);
}

export function parseCalendarCsv(text: string, defaults: CalendarDefaults = {}): CalendarFile {
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true });
  } catch (error) {
    throw new CalendarFileError([
      { path: '', message: `not valid CSV: ${error instanceof Error ? error.message : String(error)}` },
    ]);
  }
  const [header = [], ...body] = rows;
  const columns = readHeader(header);
  const problems: CalendarProblem[] = [];
  const posts = body.map((cells, index) => rowToEntry(columns, cells, `posts[${index}]`, problems));
  // Cells that are not JSON and the document's own problems are reported together, as for YAML.
  let file: CalendarFile | undefined;
  try {
    file = readCalendarDocument({ posts }, defaults);
  } catch (error) {
    if (!(error instanceof CalendarFileError)) throw error;
    problems.push(...error.errors.map(inCsvTerms));
  }
  if (file === undefined || problems.length > 0) throw new CalendarFileError(problems);
  return file;
}

function readHeader(header: string[]): Column[] {
  const problems: CalendarProblem[] = [];
  const columns: Column[] = [];
  header.forEach((raw, index) => {
    const name = raw.trim();
    if (!isColumn(name))
      problems.push({
        path: `columns[${index}]`,
        message: `unknown column "${name}" (expected: ${CSV_COLUMNS.join(', ')})`,
      });
    else if (columns.includes(name))
      problems.push({ path: `columns[${index}]`, message: `column "${name}" appears twice` });
    else columns.push(name);
  });
  for (const name of REQUIRED_COLUMNS) {
    if (!columns.includes(name))
      problems.push({ path: 'columns', message: `the header has no "${name}" column` });
  }
  if (problems.length > 0) throw new CalendarFileError(problems);
  return columns;
}

/** A row in the document's shape: an empty cell is an absent field; `content` is '' when empty. */
function rowToEntry(
  columns: Column[],
  cells: string[],
  path: string,
  problems: CalendarProblem[],
): Record<string, unknown> {
  const cell = (name: Column): string => {
    const index = columns.indexOf(name);
    return index < 0 ? '' : (cells[index] ?? '');
  };
  const entry: Record<string, unknown> = {};
  for (const name of TEXT_COLUMNS) {
    if (cell(name) !== '') entry[name] = cell(name);
  }
  const json: Partial<Record<(typeof JSON_COLUMNS)[number], unknown>> = {};
  for (const name of JSON_COLUMNS) {
    if (cell(name) === '') continue;
    try {
      json[name] = JSON.parse(cell(name));
    } catch {
      problems.push({ path: `${path}.${name}`, message: 'must be JSON' });
    }
  }
  if (json.contentItems !== undefined && cell('content') !== '') {
    problems.push({
      path: `${path}.contentItems`,
      message: 'give the text in content or the parts in contentItems, not both',
    });
  }
  entry.content = json.contentItems ?? cell('content');
  for (const name of ['media', 'platformOptions', 'firstComment', 'link'] as const) {
    if (name in json) entry[name] = json[name];
  }
  if (cell('repeatRule') !== '' || cell('repeatStart') !== '') {
    const repeat: Record<string, string> = {};
    if (cell('repeatRule') !== '') repeat.rule = cell('repeatRule');
    if (cell('repeatStart') !== '') repeat.start = cell('repeatStart');
    entry.repeat = repeat;
  }
  return entry;
}

/** A problem of the document in the CSV's terms: `posts[2].repeat.rule` → `posts[2].repeatRule`. */
function inCsvTerms(problem: CalendarProblem): CalendarProblem {
  if (problem.path === 'calendar' && problem.message === 'required') {
    return { path: 'calendar', message: 'a CSV file does not name its calendar: pass one (--calendar)' };
  }
  const path = problem.path
    .replace(/\.repeat\.rule$/, '.repeatRule')
    .replace(/\.repeat\.start$/, '.repeatStart')
    .replace(/\.repeat$/, '.repeatRule')
    .replace(/\.content\[/, '.contentItems[');
  return { path, message: problem.message };
}

export function writeCalendarCsv(file: CalendarFile): string {
  return stringify(file.entries.map(entryToRow), { header: true, columns: [...CSV_COLUMNS] });
}

function entryToRow(entry: CalendarEntry): Record<Column, string> {
  const json = (value: unknown): string => (value === undefined ? '' : JSON.stringify(value));
  const { content } = entry.post;
  return {
    key: entry.key,
    platform: entry.post.platform,
    accountId: entry.post.accountId,
    postType: entry.post.postType,
    status: entry.status,
    at: entry.at ?? '',
    timezone: entry.timezone ?? '',
    repeatRule: entry.repeat?.rule ?? '',
    repeatStart: entry.repeat?.start ?? '',
    postId: entry.postId ?? '',
    content: typeof content === 'string' ? content : '',
    contentItems: typeof content === 'string' ? '' : json(content),
    media: json(entry.post.media),
    platformOptions: json(entry.post.platformOptions),
    firstComment: json(entry.post.firstComment),
    link: json(entry.post.link),
  };
}
