import { extname } from 'node:path';
import { parseCalendarCsv, writeCalendarCsv } from './calendar-csv.js';
import type { CalendarDefaults } from './calendar-document.js';
import { CalendarFileError } from './calendar-error.js';
import {
  parseCalendarJson,
  parseCalendarYaml,
  writeCalendarJson,
  writeCalendarYaml,
} from './calendar-yaml.js';
import type { CalendarFile } from './model.js';

export type { CalendarDefaults } from './calendar-document.js';
export type { CalendarProblem } from './calendar-error.js';
export { CalendarFileError } from './calendar-error.js';

export type CalendarFormat = 'yaml' | 'json' | 'csv';

const FORMATS: Record<string, CalendarFormat> = {
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.json': 'json',
  '.csv': 'csv',
};

/**
 * The format a file's name says.
 * @throws CalendarFileError for any other extension.
 */
export function formatFromPath(path: string): CalendarFormat {
  const format = FORMATS[extname(path).toLowerCase()];
  if (format === undefined) {
    throw new CalendarFileError([{ path: '', message: `${path}: name a .yaml, .yml, .json or .csv file` }]);
  }
  return format;
}

/**
 * The calendar a file declares. `options.calendar` names a CSV calendar (CSV has no place for it)
 * and is the fallback for a YAML/JSON file without `calendar`; the file's own name wins otherwise.
 * `options.timezone` likewise (default UTC).
 * @throws CalendarFileError listing every problem of the file at once.
 */
export function parseCalendar(
  text: string,
  format: CalendarFormat,
  options: CalendarDefaults = {},
): CalendarFile {
  switch (format) {
    case 'yaml':
      return parseCalendarYaml(text, options);
    case 'json':
      return parseCalendarJson(text, options);
    case 'csv':
      return parseCalendarCsv(text, options);
  }
}

/** The file's text; parseCalendar of it gives the same calendar back (CSV: without its slots). */
export function writeCalendar(file: CalendarFile, format: CalendarFormat): string {
  switch (format) {
    case 'yaml':
      return writeCalendarYaml(file);
    case 'json':
      return writeCalendarJson(file);
    case 'csv':
      return writeCalendarCsv(file);
  }
}
