import { Document, isScalar, parseDocument, visit } from 'yaml';
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
 * again rather than as an anchor and alias, which few readers of a calendar would expect; lists of
 * plain values (days, times, languages) stay on one line, `[MO, TU, WE]`, as people write them.
 */
export function writeCalendarYaml(file: CalendarFile): string {
  const document = new Document(toCalendarDocument(file), { aliasDuplicateObjects: false });
  visit(document, {
    Seq(_, sequence) {
      if (sequence.items.length > 0 && sequence.items.every(isScalar)) sequence.flow = true;
    },
  });
  return document.toString({ lineWidth: 0, flowCollectionPadding: false });
}

export function writeCalendarJson(file: CalendarFile): string {
  return `${JSON.stringify(toCalendarDocument(file), null, 2)}\n`;
}
