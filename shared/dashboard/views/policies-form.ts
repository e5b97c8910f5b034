import type { Context } from 'hono';
import { InvalidRequestError } from '../../domain/errors.js';
import { PLATFORMS, type Platform } from '../../domain/platforms.js';
import type { WorkspacePolicies } from '../../domain/policies.js';
import { DAY_NAMES } from '../../domain/policy-check.js';
import { NETWORK_NAMES } from '../../networks/definitions.js';
import type { DashboardEnv } from '../env.js';
import {
  checkbox,
  checkboxGroup,
  errorSummary,
  type FormProblem,
  listOf,
  postForm,
  submitButton,
  textArea,
  textField,
} from '../forms.js';
import { type Html, html } from '../html.js';

/** The policies form as typed: shown again after a refusal. */
export interface PolicyFormValues {
  requireApproval: boolean;
  /** One term per line. */
  blockedTerms: string;
  allowedPlatforms: string[];
  windowDays: string[];
  windowStart: string;
  windowEnd: string;
  /** One YYYY-MM-DD per line. */
  blackoutDates: string;
  requireAltText: boolean;
}

const lines = (text: string) => [...new Set(text.split(/\r?\n/).map((line) => line.trim()))].filter(Boolean);

export function formValuesOf(form: Record<string, string | string[]>): PolicyFormValues {
  const text = (name: string) => {
    const value = form[name];
    return (Array.isArray(value) ? value[0] : value) ?? '';
  };
  return {
    requireApproval: form.requireApproval !== undefined,
    blockedTerms: text('blockedTerms'),
    allowedPlatforms: listOf(form, 'allowedPlatforms'),
    windowDays: listOf(form, 'windowDays'),
    windowStart: text('windowStart').trim(),
    windowEnd: text('windowEnd').trim(),
    blackoutDates: text('blackoutDates'),
    requireAltText: form.requireAltText !== undefined,
  };
}

export function valuesOfPolicies(policies: WorkspacePolicies | undefined): PolicyFormValues {
  return {
    requireApproval: policies?.requireApproval === true,
    blockedTerms: (policies?.blockedTerms ?? []).join('\n'),
    allowedPlatforms: [...(policies?.allowedPlatforms ?? [])],
    windowDays: (policies?.postingWindow?.days ?? []).map(String),
    windowStart: policies?.postingWindow?.start ?? '',
    windowEnd: policies?.postingWindow?.end ?? '',
    blackoutDates: (policies?.blackoutDates ?? []).join('\n'),
    requireAltText: policies?.requireAltText === true,
  };
}

const isPlatform = (value: string): value is Platform => (PLATFORMS as readonly string[]).includes(value);

/**
 * The policies the form states, whole: an unticked box or an empty field is no policy. Only the
 * form's own shape is read here (a forged platform or day is bad input); every rule on the values
 * is the one the admin CLI and the API use (validatedPolicies, in the use case).
 */
export function policiesOf(values: PolicyFormValues): WorkspacePolicies {
  const unknownPlatforms = values.allowedPlatforms.filter((value) => !isPlatform(value));
  const badDays = values.windowDays.filter((value) => !/^[0-6]$/.test(value));
  if (unknownPlatforms.length > 0 || badDays.length > 0) {
    throw new InvalidRequestError('The form names something unknown.', {
      ...(unknownPlatforms.length > 0 && { allowedPlatforms: ['Unknown platform.'] }),
      ...(badDays.length > 0 && { 'postingWindow.days': ['Unknown day.'] }),
    });
  }
  const blockedTerms = lines(values.blockedTerms);
  const allowedPlatforms = [...new Set(values.allowedPlatforms.filter(isPlatform))];
  const days = [...new Set(values.windowDays.map(Number))].sort((a, b) => a - b);
  const hasWindow = values.windowStart !== '' || values.windowEnd !== '' || days.length > 0;
  const blackoutDates = lines(values.blackoutDates).sort();
  return {
    ...(values.requireApproval && { requireApproval: true }),
    ...(blockedTerms.length > 0 && { blockedTerms }),
    ...(allowedPlatforms.length > 0 && { allowedPlatforms }),
    ...(hasWindow && {
      postingWindow: {
        start: values.windowStart,
        end: values.windowEnd,
        ...(days.length > 0 && { days }),
      },
    }),
    ...(blackoutDates.length > 0 && { blackoutDates }),
    ...(values.requireAltText && { requireAltText: true }),
  };
}

/** The form field that states a policy member (`postingWindow.end` → windowEnd). */
function fieldOf(path: string): string {
  const [member = '', inner] = path.split('.');
  if (member !== 'postingWindow') return member || 'policies';
  if (inner === 'start') return 'windowStart';
  if (inner === 'days') return 'windowDays';
  return 'windowEnd';
}

/**
 * The rule's problems on the form's fields. A list's problem names the item (`2026-02-30: Not a
 * calendar date.`), since the item's index counts the form's non-empty lines, not what was typed.
 */
export function policyProblemOf(
  error: InvalidRequestError,
  policies: WorkspacePolicies | undefined,
): FormProblem {
  const fields: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(error.details ?? {})) {
    const [member, index] = path.split('.');
    const list = member === 'blockedTerms' || member === 'blackoutDates' ? policies?.[member] : undefined;
    const item = list && index !== undefined ? list[Number(index)] : undefined;
    const said = messages.map((message) => (item === undefined ? message : `${item}: ${message}`));
    const field = fieldOf(path);
    fields[field] = [...(fields[field] ?? []), ...said];
  }
  return { message: 'The policies were not saved: correct the fields marked below.', fields };
}

/** Every facet of set-policy, as one form. */
export function policiesForm(
  c: Context<DashboardEnv>,
  action: string,
  values: PolicyFormValues,
  problem?: FormProblem,
): Html {
  const errors = problem?.fields ?? {};
  return html`${errorSummary(problem)}${postForm(
    c,
    action,
    html`<fieldset><legend>Approval</legend>${checkbox({ name: 'requireApproval', label: 'Require approval', checked: values.requireApproval })}<p class="hint">Posts wait for someone to approve them before they are scheduled.</p></fieldset>
${textArea({ name: 'blockedTerms', label: 'Blocked terms', hint: 'One per line; a post containing any of them (in any case) is refused.', value: values.blockedTerms, rows: 5, errors })}
${checkboxGroup({ name: 'allowedPlatforms', legend: 'Allowed platforms', choices: PLATFORMS.map((value) => ({ value, label: NETWORK_NAMES[value] })), checked: values.allowedPlatforms, errors })}<p class="hint">None ticked: posts may go to every platform.</p>
<fieldset><legend>Posting window (UTC)</legend><p class="hint">Publishing is allowed only inside the window. Leave start and end empty for no window; an end before the start crosses midnight.</p>
${checkboxGroup({ name: 'windowDays', legend: 'Window days', choices: DAY_NAMES.map((label, day) => ({ value: String(day), label })), checked: values.windowDays, errors })}<p class="hint">None ticked: every day.</p>
${textField({ name: 'windowStart', label: 'Window start', hint: 'HH:MM, UTC, inclusive.', value: values.windowStart, errors })}
${textField({ name: 'windowEnd', label: 'Window end', hint: 'HH:MM, UTC, exclusive.', value: values.windowEnd, errors })}</fieldset>
${textArea({ name: 'blackoutDates', label: 'Blackout dates', hint: 'One YYYY-MM-DD per line (UTC): nothing is published on these days.', value: values.blackoutDates, rows: 5, errors })}
<fieldset><legend>Media</legend>${checkbox({ name: 'requireAltText', label: 'Require alt text', checked: values.requireAltText })}<p class="hint">Every image needs a description.</p></fieldset>
${submitButton('Save policies')}`,
  )}`;
}
