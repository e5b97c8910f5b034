import { CalendarFileError } from '../../src/calendar/calendar-file.js';

/** The CalendarFileError `run` throws; anything else, or nothing, fails the test. */
export function captureError(run: () => unknown): CalendarFileError {
  try {
    run();
  } catch (error) {
    if (error instanceof CalendarFileError) return error;
    throw error;
  }
  throw new Error('expected a CalendarFileError');
}
