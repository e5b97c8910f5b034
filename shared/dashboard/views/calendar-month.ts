import { empty, type Html, html, join } from '../html.js';
import { dayKey, inMonth, weeksOf } from './calendar-dates.js';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export interface MonthGridView {
  /** The 1st of the month shown. */
  anchor: Date;
  /** The grid's first Monday and the Monday after its last Sunday. */
  start: Date;
  end: Date;
  /** Today, YYYY-MM-DD (UTC): that cell is marked. */
  today: string;
  /** A day's posts as a list labelled by the day's heading (`headingId`); undefined when none. */
  postsOf(day: Date, headingId: string): Html | undefined;
  /** The month's name, for the table's caption. */
  title: string;
}

/**
 * A day's heading: its number; its weekday (shown only where the column headings are not, on a
 * phone) and its month's name are there for screen readers too.
 */
function dayHeading(day: Date, anchor: Date, today: boolean, id: string): Html {
  const weekday = day.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });
  const month = day.toLocaleDateString('en-GB', { month: 'long', timeZone: 'UTC' });
  const shortMonth = day.toLocaleDateString('en-GB', { month: 'short', timeZone: 'UTC' });
  const outside = !inMonth(day, anchor);
  return html`<h3 id="${id}"><time datetime="${dayKey(day)}"><span class="weekday">${weekday} </span>${String(day.getUTCDate())}${
    outside
      ? html` <span aria-hidden="true">${shortMonth}</span><span class="visually-hidden">${month}</span>`
      : html`<span class="visually-hidden"> ${month}</span>`
  }</time>${today ? html` <span class="badge today">Today</span>` : empty}</h3>`;
}

/**
 * The month as a table of whole weeks, Monday first: a column heading per weekday, a cell per day
 * with its heading and its posts. Days of the months beside it are muted but list their posts;
 * an empty day says so to assistive technology only (the grid shows it empty).
 */
export function monthGrid(view: MonthGridView): Html {
  const rows = weeksOf(view.start, view.end).map(
    (week) =>
      html`<tr>${join(
        week.map((day) => {
          const key = dayKey(day);
          const headingId = `day-${key}`;
          const today = key === view.today;
          const posts = view.postsOf(day, headingId);
          const classes = [
            'calendar-day',
            ...(inMonth(day, view.anchor) ? [] : ['outside']),
            ...(posts ? [] : ['empty']),
          ].join(' ');
          return html`<td class="${classes}"${today ? html` aria-current="date"` : empty}>${dayHeading(
            day,
            view.anchor,
            today,
            headingId,
          )}${posts ?? html`<p class="visually-hidden">No posts.</p>`}</td>`;
        }),
      )}</tr>`,
  );
  return html`<table class="calendar-month"><caption class="visually-hidden">${view.title}, a week per row, Monday first</caption><thead><tr>${join(
    WEEKDAYS.map((name) => html`<th scope="col">${name}</th>`),
  )}</tr></thead><tbody>${join(rows)}</tbody></table>`;
}
