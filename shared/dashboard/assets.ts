import type { Hono } from 'hono';
import type { DashboardEnv } from './env.js';

/**
 * The dashboard's only stylesheet and script, served from the function itself (no build step, no
 * other host). The script only enhances: every page works without it.
 */
const STYLESHEET = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0a58ca; --danger: #b42318; --ok: #116329; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f6f8fa; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; }
.skip-link { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; }
.skip-link:focus { left: 0; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; padding: .75rem 1.5rem; background: #24292f; color: #fff; }
header a { color: #fff; }
.brand { margin: 0; font-weight: 700; }
nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 1rem; }
header nav { display: flex; flex: 1; align-items: center; justify-content: space-between; gap: 1rem; }
[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
.workspace-nav { padding: .5rem 1.5rem; background: #fff; border-bottom: 1px solid var(--line); display: flex; gap: 1.5rem; align-items: center; flex-wrap: wrap; }
.workspace-nav p { margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { margin-top: 0; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 1rem 1.25rem; margin-bottom: 1.25rem; }
table { width: 100%; border-collapse: collapse; background: #fff; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
table.responsive th, table.responsive td { overflow-wrap: anywhere; }
table.responsive th[scope=row] a { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .8125rem; }
@media (max-width: 40rem) {
  table.responsive thead { position: absolute; left: -9999px; }
  table.responsive, table.responsive tbody, table.responsive tr, table.responsive th, table.responsive td { display: block; width: 100%; }
  table.responsive tr { border: 1px solid var(--line); border-radius: 6px; margin-bottom: .75rem; }
  table.responsive th[data-label]::before, table.responsive td[data-label]::before { content: attr(data-label); display: block; font-weight: 600; color: var(--muted); font-size: .875rem; }
}
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; }
.calendar-nav ul { margin-bottom: .75rem; }
.calendar-filters { display: flex; flex-wrap: wrap; gap: 0 1rem; align-items: end; }
.calendar { list-style: none; padding: 0; display: grid; gap: .5rem; grid-template-columns: minmax(0, 1fr); }
@media (min-width: 60rem) { .calendar { grid-template-columns: repeat(7, minmax(0, 1fr)); } }
.calendar-day { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .4rem; min-height: 5rem; overflow-wrap: anywhere; }
.calendar-day h3 { font-size: .875rem; margin: 0 0 .25rem; }
.calendar-day ul { list-style: none; padding: 0; margin: 0; }
.calendar-post { border-left: 3px solid var(--accent); padding: .2rem .4rem; margin-bottom: .4rem; font-size: .875rem; }
.calendar-post.collision { border-left-color: var(--danger); background: #fff5f5; }
.calendar-post input[type=datetime-local] { max-width: 100%; }
caption { text-align: left; font-weight: 600; padding: .4rem 0; }
.field { margin: 0 0 1rem; }
.field label, legend { display: block; font-weight: 600; }
.choice { display: flex; gap: .5rem; align-items: center; }
.choice label { font-weight: 400; }
input[type=text], input[type=email], input[type=password], input[type=url], input[type=number], input[type=datetime-local], input[type=search], select, textarea { width: 100%; max-width: 32rem; padding: .4rem .5rem; border: 1px solid #8c959f; border-radius: 4px; font: inherit; }
fieldset { border: 1px solid var(--line); border-radius: 4px; }
button { font: inherit; padding: .4rem .9rem; border-radius: 4px; border: 1px solid #1f6feb; background: #1f6feb; color: #fff; cursor: pointer; }
button.danger { background: var(--danger); border-color: var(--danger); }
button.secondary { background: #fff; color: var(--ink); border-color: #8c959f; }
form.inline { display: inline; }
.sign-out { display: flex; gap: .5rem; align-items: center; }
.hint { color: var(--muted); margin: .1rem 0 .3rem; }
.field-error { color: var(--danger); font-weight: 600; margin: .2rem 0 0; }
[aria-invalid="true"] { border-color: var(--danger); }
.error-summary, .alert { border: 2px solid var(--danger); background: #fff5f5; padding: .75rem 1rem; border-radius: 6px; }
.notice { border: 2px solid var(--ok); background: #f0fff4; padding: .75rem 1rem; border-radius: 6px; }
.secret { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; background: #fff8c5; padding: .5rem; border-radius: 4px; word-break: break-all; }
.badge { display: inline-block; padding: 0 .5rem; border-radius: 1rem; background: #eaeef2; font-size: .875rem; }
.badge.bad { background: #ffebe9; color: var(--danger); }
.badge.good { background: #dafbe1; color: var(--ok); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; padding: .5rem; border-radius: 4px; }
`;

/** The header's dark square with a blue dot: the dashboard's icon. */
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#24292f"/><circle cx="8" cy="8" r="4" fill="#1f6feb"/></svg>';

const SCRIPT = `
'use strict';
document.addEventListener('click', function (event) {
  var button = event.target.closest('button[data-copy]');
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(function () {
    button.textContent = 'Copied';
  });
});
document.addEventListener('submit', function (event) {
  var form = event.target;
  var question = form.getAttribute('data-confirm');
  if (question && !window.confirm(question)) event.preventDefault();
});
window.addEventListener('DOMContentLoaded', function () {
  var summary = document.querySelector('.error-summary');
  if (summary) summary.focus();
});
// The composer's live Check: the same POST as its Check button (validatePost for each account),
// sent a moment after the person stops typing; the answer's #check-answer replaces the page's.
(function () {
  var timer = null;
  var sent = 0;
  function check(form) {
    var ticket = ++sent;
    var body = new URLSearchParams(new FormData(form));
    body.set('intent', 'check');
    fetch(form.action, { method: 'POST', body: body, credentials: 'same-origin' })
      .then(function (response) { return response.text(); })
      .then(function (text) {
        if (ticket !== sent) return;
        var answer = new DOMParser().parseFromString(text, 'text/html').getElementById('check-answer');
        var here = document.getElementById('check-answer');
        if (!answer || !here) return;
        here.replaceChildren.apply(here, Array.prototype.map.call(answer.childNodes, function (node) {
          return document.importNode(node, true);
        }));
      })
      .catch(function () { /* the Check button still works */ });
  }
  function schedule(event) {
    var form = event.target.form;
    if (!form || !form.hasAttribute('data-live-check')) return;
    if (!form.querySelector('input[name="accountIds"]:checked')) return;
    clearTimeout(timer);
    timer = setTimeout(function () { check(form); }, 800);
  }
  document.addEventListener('input', schedule);
  document.addEventListener('change', schedule);
})();
`;

export function registerAssets(app: Hono<DashboardEnv>): void {
  const serve = (body: string, type: string) => () =>
    new Response(body, {
      headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=300' },
    });
  app.get('/assets/dashboard.css', serve(STYLESHEET, 'text/css; charset=utf-8'));
  app.get('/assets/dashboard.js', serve(SCRIPT, 'text/javascript; charset=utf-8'));
  // Pages link the SVG; `/dashboard/favicon.ico`, asked for by convention, answers the same icon
  // (text, as the Lambda bridge carries bodies; browsers go by its Content-Type).
  app.get('/assets/favicon.svg', serve(FAVICON_SVG, 'image/svg+xml'));
  app.get('/favicon.ico', serve(FAVICON_SVG, 'image/svg+xml'));
}
