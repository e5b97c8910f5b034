import type { Context } from 'hono';
import { AppError, InvalidRequestError } from '../domain/errors.js';
import { csrfInput } from './csrf-field.js';
import type { DashboardEnv } from './env.js';
import { empty, type Html, html, join } from './html.js';

/** Messages by field name (the `name` of its input). */
export type FieldErrors = Readonly<Record<string, readonly string[] | undefined>>;

export interface FormProblem {
  /** What is wrong overall, said once above the form. */
  message: string;
  fields: FieldErrors;
}

const fieldId = (name: string) => `field-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** A form's values, each field once (a repeated field, e.g. checkboxes, as a list). */
export async function readForm(c: Context<DashboardEnv>): Promise<Record<string, string | string[]>> {
  const body = await c.req.parseBody({ all: true });
  const form: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string') form[name] = value;
    else if (Array.isArray(value)) form[name] = value.filter((v): v is string => typeof v === 'string');
  }
  return form;
}

/** One field's value as text ('' when absent; the first when repeated). */
export function textOf(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
}

/** A repeated field's values (checkboxes): [] when none is ticked. */
export function listOf(form: Record<string, string | string[]>, name: string): string[] {
  const value = form[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * An error of ours as what a form shows: the message, and each field's messages where the error
 * names fields (a validation error's details, keyed by the API's field names without `body.`).
 * Anything else is not ours to show and is thrown on.
 */
export function problemFrom(error: unknown): FormProblem {
  if (!(error instanceof AppError)) throw error;
  const fields: Record<string, string[]> = {};
  if (error instanceof InvalidRequestError && error.details) {
    for (const [field, messages] of Object.entries(error.details)) {
      fields[field.replace(/^body\.?/, '') || 'body'] = [...messages];
    }
  }
  const listed = error.fields.errors;
  if (Array.isArray(listed)) {
    for (const entry of listed) {
      if (entry && typeof entry === 'object' && 'field' in entry && 'message' in entry) {
        const field = String(entry.field);
        fields[field] = [...(fields[field] ?? []), String(entry.message)];
      }
    }
  }
  return { message: error.message, fields };
}

/** Above a form: what went wrong, with a link to each field concerned. */
export function errorSummary(problem: FormProblem | undefined): Html {
  if (!problem) return empty;
  const entries = Object.entries(problem.fields).filter(([, messages]) => messages && messages.length > 0);
  return html`<div class="error-summary" role="alert" tabindex="-1"><p>${problem.message}</p>${
    entries.length > 0
      ? html`<ul>${join(
          entries.map(
            ([name, messages]) =>
              html`<li><a href="#${fieldId(name)}">${name}: ${(messages ?? []).join(' ')}</a></li>`,
          ),
        )}</ul>`
      : empty
  }</div>`;
}

function fieldMessages(name: string, errors: FieldErrors | undefined): { described: Html; messages: Html } {
  const messages = errors?.[name];
  if (!messages || messages.length === 0) return { described: empty, messages: empty };
  return {
    described: html` aria-invalid="true" aria-describedby="${fieldId(name)}-error"`,
    messages: html`<p class="field-error" id="${fieldId(name)}-error">${messages.join(' ')}</p>`,
  };
}

export interface TextFieldOptions {
  name: string;
  label: string;
  value?: string;
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'datetime-local' | 'search';
  required?: boolean;
  hint?: string;
  autocomplete?: string;
  errors?: FieldErrors;
}

/** A labelled input, its hint and its error, tied together for assistive technology. */
export function textField(options: TextFieldOptions): Html {
  const id = fieldId(options.name);
  const { described, messages } = fieldMessages(options.name, options.errors);
  return html`<div class="field"><label for="${id}">${options.label}</label>${
    options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : empty
  }<input id="${id}" name="${options.name}" type="${options.type ?? 'text'}" value="${options.value ?? ''}"${
    options.required ? html` required` : empty
  }${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : empty}${described}>${messages}</div>`;
}

export function textArea(options: Omit<TextFieldOptions, 'type' | 'autocomplete'> & { rows?: number }): Html {
  const id = fieldId(options.name);
  const { described, messages } = fieldMessages(options.name, options.errors);
  return html`<div class="field"><label for="${id}">${options.label}</label>${
    options.hint ? html`<p class="hint">${options.hint}</p>` : empty
  }<textarea id="${id}" name="${options.name}" rows="${options.rows ?? 4}"${options.required ? html` required` : empty}${described}>${options.value ?? ''}</textarea>${messages}</div>`;
}

export interface Choice {
  value: string;
  label: string;
}

export function selectField(options: {
  name: string;
  label: string;
  choices: readonly Choice[];
  value?: string;
  errors?: FieldErrors;
}): Html {
  const id = fieldId(options.name);
  const { described, messages } = fieldMessages(options.name, options.errors);
  return html`<div class="field"><label for="${id}">${options.label}</label><select id="${id}" name="${options.name}"${described}>${join(
    options.choices.map(
      (choice) =>
        html`<option value="${choice.value}"${choice.value === options.value ? html` selected` : empty}>${choice.label}</option>`,
    ),
  )}</select>${messages}</div>`;
}

/** Checkboxes sharing one name, in a fieldset whose legend labels the group. */
export function checkboxGroup(options: {
  name: string;
  legend: string;
  choices: readonly Choice[];
  checked: readonly string[];
  errors?: FieldErrors;
}): Html {
  const { messages } = fieldMessages(options.name, options.errors);
  return html`<fieldset class="field" id="${fieldId(options.name)}"><legend>${options.legend}</legend>${join(
    options.choices.map((choice, index) => {
      const id = `${fieldId(options.name)}-${index}`;
      return html`<div class="choice"><input type="checkbox" id="${id}" name="${options.name}" value="${choice.value}"${
        options.checked.includes(choice.value) ? html` checked` : empty
      }><label for="${id}">${choice.label}</label></div>`;
    }),
  )}${messages}</fieldset>`;
}

/** One checkbox with its own label. */
export function checkbox(options: { name: string; label: string; checked: boolean; value?: string }): Html {
  const id = fieldId(options.name);
  return html`<div class="field choice"><input type="checkbox" id="${id}" name="${options.name}" value="${options.value ?? 'on'}"${
    options.checked ? html` checked` : empty
  }><label for="${id}">${options.label}</label></div>`;
}

/**
 * A POST form carrying the CSRF token. `confirm`: the question the dashboard's script asks before
 * a destructive submit (without script the form submits as is). `liveCheck`: the script sends the
 * form with `intent=check` as the person types and shows the answer in `#check-answer`.
 */
export function postForm(
  c: Context<DashboardEnv>,
  action: string,
  content: Html,
  options: { confirm?: string; label?: string; inline?: boolean; liveCheck?: boolean } = {},
): Html {
  return html`<form method="post" action="${action}"${options.inline ? html` class="inline"` : empty}${
    options.liveCheck ? html` data-live-check` : empty
  }${
    options.confirm ? html` data-confirm="${options.confirm}"` : empty
  }${options.label ? html` aria-label="${options.label}"` : empty}>${csrfInput(c.var.csrfToken)}${content}</form>`;
}

export function submitButton(label: string, options: { danger?: boolean } = {}): Html {
  return html`<button type="submit"${options.danger ? html` class="danger"` : empty}>${label}</button>`;
}
