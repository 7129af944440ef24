import type { FieldError } from '../../../protocol/validation';
import { FIELD_KEYS, type FieldKey } from './settings-draft';

// Main answers a bad patch with its field errors — the bridge's `fields` when the request
// failed validation, or { ok: false, errors: [{ path, message }] } from the settings store.
// They are mapped onto the form's fields; what matches no field is shown above the Save button.

export interface MappedErrors {
  fields: Partial<Record<FieldKey, string>>;
  general: string[];
}

function fieldFor(path: string): FieldKey | null {
  const p = path.replace(/^patch\.?/, '').replace(/^settings\.?/, '');
  if ((FIELD_KEYS as readonly string[]).includes(p)) return p as FieldKey;
  return null;
}

/** Sentence case for a message that starts mid-sentence ("must be a URL …"). */
export const sentence = (m: string): string => (m ? m.charAt(0).toUpperCase() + m.slice(1) : m);

export function mapFieldErrors(errors: FieldError[]): MappedErrors {
  const out: MappedErrors = { fields: {}, general: [] };
  for (const e of errors) {
    const key = fieldFor(e.path);
    if (key) out.fields[key] = out.fields[key] ? `${out.fields[key]}; ${e.message}` : sentence(e.message);
    else out.general.push(e.path && !/^patch$/.test(e.path) ? `${e.path}: ${e.message}` : sentence(e.message));
  }
  return out;
}
