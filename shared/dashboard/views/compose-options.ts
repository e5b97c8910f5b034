import * as z from 'zod';
import { type PlatformOptions, platformOptionsSchema } from '../../domain/platform-options.js';
import type { Platform } from '../../domain/platforms.js';
import { selectField, textField } from '../forms.js';
import { empty, type Html, html, join } from '../html.js';
import { NETWORK_NAMES } from './posts-format.js';

/**
 * The composer's platformOptions fields, generated from the same zod schemas the API validates
 * with (shared/domain/platform-options.ts), so a new option shows here without a page change.
 * Covered: enums (a choice list), booleans (network default / yes / no), strings and numbers (a
 * text field). Anything else (lists, nested objects: YouTube tags, Instagram collaborators or
 * location) is named under the network as "through the API only" rather than half-supported.
 */

type Field =
  | { kind: 'enum'; name: string; values: readonly string[]; description: string | undefined }
  | { kind: 'boolean'; name: string; description: string | undefined }
  | { kind: 'text'; name: string; number: boolean; description: string | undefined }
  | { kind: 'other'; name: string };

/** The schema under `.optional()`, `.nullable()` and `.default()`, with the outer description. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; description: string | undefined } {
  let inner = schema;
  const description = schema.description;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) {
    inner = inner.unwrap() as z.ZodType;
  }
  return { inner, description: description ?? inner.description };
}

function fieldOf(name: string, schema: z.ZodType): Field {
  const { inner, description } = unwrap(schema);
  if (inner instanceof z.ZodEnum)
    return { kind: 'enum', name, values: inner.options.map(String), description };
  if (inner instanceof z.ZodBoolean) return { kind: 'boolean', name, description };
  if (inner instanceof z.ZodString) return { kind: 'text', name, number: false, description };
  if (inner instanceof z.ZodNumber) return { kind: 'text', name, number: true, description };
  // A union of literals and strings (LinkedIn's author) is typed as text; the API checks it.
  if (inner instanceof z.ZodUnion) return { kind: 'text', name, number: false, description };
  return { kind: 'other', name };
}

/** Each network's options, as fields, in the schema's order. */
export function optionFieldsOf(platform: Platform): Field[] {
  const shape = platformOptionsSchema.shape as Record<string, z.ZodType>;
  const network = shape[platform];
  if (!network) return [];
  const { inner } = unwrap(network);
  if (!(inner instanceof z.ZodObject)) return [];
  return Object.entries(inner.shape as Record<string, z.ZodType>).map(([name, schema]) =>
    fieldOf(name, schema),
  );
}

const inputName = (platform: Platform, field: string) => `opt.${platform}.${field}`;

/** One network's option fields in a fieldset; `values` by input name, as typed. */
export function optionFieldset(platform: Platform, values: Readonly<Record<string, string>>): Html {
  const fields = optionFieldsOf(platform);
  if (fields.length === 0) return empty;
  const shown = fields.filter((field) => field.kind !== 'other');
  const other = fields.filter((field) => field.kind === 'other').map((field) => field.name);
  return html`<fieldset class="field options"><legend>${NETWORK_NAMES[platform]} options</legend>${join(
    shown.map((field) => {
      const name = inputName(platform, field.name);
      const label = `${NETWORK_NAMES[platform]}: ${field.name}`;
      if (field.kind === 'enum') {
        return selectField({
          name,
          label,
          choices: [
            { value: '', label: 'Network default' },
            ...field.values.map((value) => ({ value, label: value })),
          ],
          value: values[name] ?? '',
        });
      }
      if (field.kind === 'boolean') {
        return selectField({
          name,
          label,
          choices: [
            { value: '', label: 'Network default' },
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ],
          value: values[name] ?? '',
        });
      }
      return textField({
        name,
        label,
        value: values[name] ?? '',
        ...(field.kind === 'text' && field.description && { hint: field.description }),
      });
    }),
  )}${
    other.length > 0
      ? html`<p class="hint">Through the API only (updatePost's <code>platformOptions</code>): ${other.join(', ')}.</p>`
      : empty
  }</fieldset>`;
}

/**
 * The options a form gives for one network, in the schema's types; none: undefined. Values the
 * form cannot produce (a forged "maybe") are passed on as typed for the API to refuse.
 */
export function optionsFromForm(
  platform: Platform,
  form: Readonly<Record<string, string>>,
): PlatformOptions | undefined {
  const options: Record<string, unknown> = {};
  for (const field of optionFieldsOf(platform)) {
    if (field.kind === 'other') continue;
    const raw = (form[inputName(platform, field.name)] ?? '').trim();
    if (raw === '') continue;
    if (field.kind === 'boolean') options[field.name] = raw === 'true' ? true : raw === 'false' ? false : raw;
    else if (field.kind === 'text' && field.number && Number.isFinite(Number(raw)))
      options[field.name] = Number(raw);
    else options[field.name] = raw;
  }
  return Object.keys(options).length > 0 ? ({ [platform]: options } as PlatformOptions) : undefined;
}
