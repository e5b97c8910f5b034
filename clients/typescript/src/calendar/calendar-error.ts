/** One problem of a calendar file: where (`posts[3].at`, `slots[0].times[1]`) and what. */
export interface CalendarProblem {
  path: string;
  message: string;
}

/**
 * A calendar file that cannot be used, with every problem found at once, so one run of `plan`
 * lists all the fixes a file needs rather than the first of them.
 */
export class CalendarFileError extends Error {
  override readonly name = 'CalendarFileError';
  readonly errors: CalendarProblem[];

  constructor(errors: CalendarProblem[]) {
    super(
      errors.length === 1
        ? `calendar file: ${describe(errors[0])}`
        : `calendar file: ${errors.length} problems:\n${errors.map((error) => `  ${describe(error)}`).join('\n')}`,
    );
    this.errors = errors;
  }
}

function describe(problem: CalendarProblem | undefined): string {
  if (problem === undefined) return '';
  return problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`;
}

/** Collects problems while a file is read, then throws them together. */
export class Problems {
  readonly list: CalendarProblem[] = [];

  add(path: string, message: string): void {
    this.list.push({ path, message });
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new CalendarFileError(this.list);
  }
}
