// How the console words the runner API's refusals. The API names the field it refuses, as
// Semaphore's does (`run_at: must be in the future`), and keeps doing so for its clients; a
// person reads the message beside that field, or the field's label and a sentence.

/** An API refusal that names its field. */
export interface FieldRefusal { field: string; reason: string }

/**
 * The field and reason of an API error text of the form `field: reason`, else null.
 * @example fieldRefusal('run_at: must be in the future') // { field: 'run_at', reason: 'must be in the future' }
 */
export function fieldRefusal(text: string): FieldRefusal | null {
  const match = /^([a-z][a-z0-9_]*): (\S[\s\S]*)$/.exec(text.trim());
  return match ? { field: match[1]!, reason: match[2]! } : null;
}

/**
 * A reason as a sentence: a capital first letter and a full stop.
 * @example asSentence('must be in the future') // 'Must be in the future.'
 */
export function asSentence(reason: string): string {
  const text = reason.trim();
  if (!text) return text;
  const first = text.charAt(0).toLocaleUpperCase() + text.slice(1);
  return /[.!?…)"”]$/.test(first) ? first : `${first}.`;
}

/**
 * An API error text as the console shows it away from its field: the field's label (from
 * `labels`, else its name in words) and the reason as a sentence; other texts as they came.
 * @example errorForPeople('secret: required for token auth') // 'Secret: Required for token auth.'
 */
export function errorForPeople(text: string, labels: Record<string, string> = {}): string {
  const refusal = fieldRefusal(text);
  if (!refusal) return text;
  const label = Object.hasOwn(labels, refusal.field) ? labels[refusal.field]! : fieldInWords(refusal.field);
  return `${label}: ${asSentence(refusal.reason)}`;
}

/** `run_at` → "Run at". */
function fieldInWords(field: string): string {
  const words = field.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
