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
header nav { display: flex; flex: 1 1 20rem; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 1rem; }
[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
.workspace-nav { padding: .5rem 1.5rem; background: #fff; border-bottom: 1px solid var(--line); display: flex; gap: 1.5rem; align-items: center; flex-wrap: wrap; }
.workspace-nav p { margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { margin-top: 0; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 1rem 1.25rem; margin-bottom: 1.25rem; }
table { width: 100%; border-collapse: collapse; background: #fff; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
/* On a phone a cell may break anywhere (long ids, emails); wider, a column keeps its words whole. */
@media (max-width: 40rem) { th, td { overflow-wrap: anywhere; } }
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
.calendar-day[aria-current="date"] { border: 2px solid var(--accent); }
.badge.today { background: var(--accent); color: #fff; }
.calendar-month { table-layout: fixed; background: transparent; }
.calendar-month th[scope=col] { font-size: .875rem; }
.calendar-month td.calendar-day { border: 1px solid var(--line); border-radius: 0; height: 6rem; }
.calendar-month td.outside { background: #f6f8fa; }
.calendar-month td.outside h3 { color: var(--muted); font-weight: 400; }
.calendar-month .weekday { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 60rem) {
  .calendar-month thead { position: absolute; left: -9999px; }
  .calendar-month, .calendar-month tbody, .calendar-month tr, .calendar-month td { display: block; width: 100%; }
  .calendar-month td.calendar-day { height: auto; min-height: 0; margin-bottom: .25rem; }
  .calendar-month td.outside.empty { display: none; }
  .calendar-month .weekday { position: static; width: auto; height: auto; overflow: visible; clip: auto; }
}
caption { text-align: left; font-weight: 600; padding: .4rem 0; }
.metric-charts { display: grid; gap: 1.25rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 36rem), 1fr)); }
.metric { margin: 0; min-width: 0; }
.metric h3 { margin: 0; font-size: 1rem; }
.metric-body { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: flex-start; }
.metric-body > svg { flex: 1 1 18rem; min-width: 0; max-width: 28rem; }
.metric-body > table { flex: 1 1 14rem; width: auto; }
.chart-table th, .chart-table td { overflow-wrap: normal; padding: .25rem .5rem; }
svg.chart { width: 100%; height: auto; }
svg.chart text { font-size: 12px; fill: var(--muted); }
svg.chart .chart-axis { stroke: #8c959f; stroke-width: 1; }
svg.chart .chart-line { fill: none; stroke: var(--accent); stroke-width: 2; }
svg.chart .chart-dot { fill: var(--accent); }
.metrics-overview table + table { margin-top: 1rem; }
.field { margin: 0 0 1rem; }
.field label, legend { display: block; font-weight: 600; }
.choice { display: flex; gap: .5rem; align-items: center; }
.choice label { font-weight: 400; }
input[type=text], input[type=email], input[type=password], input[type=url], input[type=number], input[type=datetime-local], input[type=search], select, textarea { width: 100%; max-width: 32rem; padding: .4rem .5rem; border: 1px solid #8c959f; border-radius: 4px; font: inherit; }
fieldset { border: 1px solid var(--line); border-radius: 4px; min-width: 0; }
code { overflow-wrap: anywhere; }
button { font: inherit; padding: .4rem .9rem; border-radius: 4px; border: 1px solid #1f6feb; background: #1f6feb; color: #fff; cursor: pointer; }
button.danger { background: var(--danger); border-color: var(--danger); }
button.secondary { background: #fff; color: var(--ink); border-color: #8c959f; }
form.inline { display: inline; }
.sign-out { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; min-width: 0; }
.sign-out span { overflow-wrap: anywhere; }
.hint { color: var(--muted); margin: .1rem 0 .3rem; }
.field-error { color: var(--danger); font-weight: 600; margin: .2rem 0 0; }
[aria-invalid="true"] { border-color: var(--danger); }
.error-summary, .alert { border: 2px solid var(--danger); background: #fff5f5; padding: .75rem 1rem; border-radius: 6px; }
.notice { border: 2px solid var(--ok); background: #f0fff4; padding: .75rem 1rem; border-radius: 6px; }
.secret { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; background: #fff8c5; padding: .5rem; border-radius: 4px; word-break: break-all; }
.badge { display: inline-block; padding: 0 .5rem; border-radius: 1rem; background: #eaeef2; font-size: .875rem; }
.badge.bad { background: #ffebe9; color: var(--danger); }
.badge.good { background: #dafbe1; color: var(--ok); }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .25rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
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
// The composer's direct upload (views/compose-upload.ts): the file goes from the browser straight
// to storage through the presigned URL, never through the dashboard, so the API's own limits apply.
// Without this script the same form posts the file to the dashboard, which relays it.
(function () {
  function post(url, fields) {
    var body = new URLSearchParams(fields);
    return fetch(url, {
      method: 'POST',
      body: body,
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    }).then(function (response) {
      var json = (response.headers.get('Content-Type') || '').indexOf('application/json') === 0;
      if (!json) throw new Error('The dashboard refused the upload (' + response.status + '). Reload the page and try again.');
      return response.json().then(function (answer) {
        if (!response.ok) {
          var details = Object.keys(answer.fields || {}).map(function (name) { return name + ': ' + answer.fields[name].join(' '); });
          throw new Error([answer.message].concat(details).join(' '));
        }
        return answer;
      });
    });
  }
  // One PUT of the raw bytes with the headers it was signed for (the browser sets Content-Length
  // itself: a page may not), reporting its progress.
  function put(issued, file, progress) {
    return new Promise(function (resolve, reject) {
      var request = new XMLHttpRequest();
      request.open('PUT', issued.uploadUrl);
      Object.keys(issued.headers).forEach(function (name) {
        if (name.toLowerCase() !== 'content-length') request.setRequestHeader(name, issued.headers[name]);
      });
      request.upload.addEventListener('progress', function (event) {
        if (event.lengthComputable) progress.value = Math.round((event.loaded / event.total) * 100);
      });
      request.addEventListener('load', function () {
        if (request.status >= 200 && request.status < 300) resolve();
        else reject(new Error('The storage refused the file (' + request.status + '). Try again.'));
      });
      request.addEventListener('error', function () {
        reject(new Error('The file could not reach the storage. Check your connection and try again.'));
      });
      request.send(file);
    });
  }
  // The uploaded media in the composer's Media, ticked, with its Alt text field (as the page would
  // render it); a change event so the live Check sees it.
  function tick(media) {
    var holder = document.getElementById('compose-media');
    if (!holder) return;
    var group = document.getElementById('field-mediaIds');
    if (!group) {
      holder.replaceChildren();
      group = document.createElement('fieldset');
      group.className = 'field';
      group.id = 'field-mediaIds';
      var legend = document.createElement('legend');
      legend.textContent = 'Media';
      group.appendChild(legend);
      holder.appendChild(group);
    }
    var choice = document.createElement('div');
    choice.className = 'choice';
    var box = document.createElement('input');
    box.type = 'checkbox';
    box.id = 'field-mediaIds-' + media.mediaId;
    box.name = 'mediaIds';
    box.value = media.mediaId;
    box.checked = true;
    var label = document.createElement('label');
    label.htmlFor = box.id;
    label.textContent = media.filename + ' (' + media.mimeType + ')';
    choice.append(box, label);
    group.appendChild(choice);
    var alt = document.createElement('div');
    alt.className = 'field';
    var altLabel = document.createElement('label');
    altLabel.htmlFor = 'field-alt-' + media.mediaId;
    altLabel.textContent = 'Alt text for ' + media.filename;
    var altInput = document.createElement('input');
    altInput.type = 'text';
    altInput.id = altLabel.htmlFor;
    altInput.name = 'alt.' + media.mediaId;
    alt.append(altLabel, altInput);
    holder.appendChild(alt);
    box.dispatchEvent(new Event('change', { bubbles: true }));
  }
  function upload(form) {
    var base = form.getAttribute('data-direct-upload');
    var input = form.querySelector('input[type=file]');
    var file = input.files[0];
    var csrf = form.querySelector('input[name=_csrf]').value;
    var button = form.querySelector('button[type=submit]');
    var progress = form.querySelector('progress');
    var status = form.querySelector('[role=status]');
    var alert = form.querySelector('[role=alert]');
    alert.replaceChildren();
    button.disabled = true;
    progress.value = 0;
    progress.hidden = false;
    status.textContent = 'Uploading ' + file.name + '…';
    post(base + '/url', { _csrf: csrf, filename: file.name, mimeType: file.type, sizeBytes: String(file.size) })
      .then(function (issued) {
        return put(issued, file, progress).then(function () {
          return post(base + '/' + encodeURIComponent(issued.mediaId) + '/confirm', { _csrf: csrf });
        });
      })
      .then(function (media) {
        progress.value = 100;
        tick(media);
        input.value = '';
        status.textContent = 'Uploaded ' + media.filename + ': it is ticked below.';
      })
      .catch(function (error) {
        progress.hidden = true;
        status.textContent = '';
        var message = document.createElement('p');
        message.className = 'alert';
        message.textContent = 'Upload failed: ' + error.message;
        alert.appendChild(message);
      })
      .finally(function () {
        button.disabled = false;
      });
  }
  Array.prototype.forEach.call(document.querySelectorAll('form[data-direct-upload]'), function (form) {
    var input = form.querySelector('input[type=file]');
    var hint = document.getElementById(input.getAttribute('aria-describedby'));
    input.accept = form.getAttribute('data-direct-accept');
    if (hint) hint.textContent = form.getAttribute('data-direct-hint');
    form.addEventListener('submit', function (event) {
      if (!input.files || input.files.length === 0) return;
      event.preventDefault();
      upload(form);
    });
  });
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
