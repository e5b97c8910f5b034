import { parseDocument, stringify } from 'yaml';
import { type CalendarDefaults, readCalendarDocument, toCalendarDocument } from './calendar-document.js';
import { CalendarFileError } from './calendar-error.js';
import type { CalendarFile } from './model.js';

/**
 * A YAML calendar. YAML 1.2 (the library's default) keeps `2026-12-01T09:00` and `09:00` as
 * strings, so times need no quotes; a key written twice in one mapping is an error, not a silent
 * override.
 */
export function parseCalendarYaml(text: string, defaults: CalendarDefaults = {}): CalendarFile {
  const document = parseDocument(text, { uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new CalendarFileError(
      document.errors.map((error) => {
        const position = error.linePos?.[0];
        return {
          path: position === undefined ? '' : `line ${position.line}, column ${position.col}`,
          message: `not valid YAML: ${(error.message.split('\n')[0] ?? error.code).replace(/ at line \d+, column \d+:?$/, '')}`,
        };
      }),
    );
  }
  return readCalendarDocument(document.toJS({ maxAliasCount: 100 }), defaults);
}

export function parseCalendarJson(text: string, defaults: CalendarDefaults = {}): CalendarFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new CalendarFileError([
      { path: '', message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` },
    ]);
  }
  return readCalendarDocument(doc, defaults);
}

/**
 * YAML for people and diffs: the library chooses block scalars for multi-line texts and quotes
 * where a plain scalar would read back as something else; an object met twice is written out
 * again rather than as an anchor and alias, which few readers of a calendar would expect.
 */
export function writeCalendarYaml(file: CalendarFile): string {
  return stringify(toCalendarDocument(file), { aliasDuplicateObjects: false, lineWidth: 0 });
}

export function writeCalendarJson(file: CalendarFile): string {
  return `${JSON.stringify(toCalendarDocument(file), null, 2)}\n`;
}
