/**
 * The template dialog's editor rules (seed 001 §5: survey variables, vaults, args picker), shared
 * by the islands (checked as the user edits) and the server form loop (checked again on save, so
 * a plain POST without JavaScript gets the same messages). Each rule answers a message key of the
 * `templateForm` locale section, or null when the value is fine.
 */

export const SURVEY_TYPES = ['string', 'int', 'secret', 'enum'] as const;
export type SurveyType = (typeof SURVEY_TYPES)[number];

export interface SurveyValue { name: string; value: string }
export interface SurveyVarDraft {
  name: string;
  title: string;
  description: string;
  type: SurveyType;
  values: SurveyValue[];
  default_value: string;
  required: boolean;
  /** the answer is used for the run and never stored */
  do_not_store: boolean;
  /** how the answer reaches the run: as a variable of the tool ('') or an environment variable ('env') */
  target: '' | 'env';
  /** an enum's choices read from this URL when a task is launched ('' = its values) */
  values_url: string;
  /** the project key sent to values_url (kept as the API has it; set through the API) */
  values_url_key_id: number | null;
}

export interface VaultDraft {
  id?: number;
  name: string;
  type: 'password' | 'script' | '';
  vault_key_id: number | null;
  script: string;
}

/** Survey variable: name, title; enum needs values with unique, non-empty names. Field → message key. */
export function surveyVarErrors(v: SurveyVarDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!v.name.trim()) errors.name = 'name_required';
  if (!v.title.trim()) errors.title = 'title_required';
  if (v.type === 'enum') {
    if (v.values.length === 0 && !v.values_url.trim()) errors.values = 'enum_no_values';
    else if (v.values.some((x) => !x.name.trim())) errors.values = 'enum_empty_name';
    else if (new Set(v.values.map((x) => x.name.trim())).size !== v.values.length) errors.values = 'enum_unique_names';
  }
  return errors;
}

/** A vault's name as stored: trimmed and lower-cased; empty is the default (unnamed) vault. */
export function vaultName(name: string | null | undefined): string {
  return (name ?? '').trim().toLowerCase();
}

/** Vault at `index` among `all`: unique name, one default, a type, a key or a `*-client[.ext]` script. */
export function vaultErrors(all: VaultDraft[], index: number): Record<string, string> {
  const v = all[index]!;
  const errors: Record<string, string> = {};
  const name = vaultName(v.name);
  if (all.some((other, i) => i !== index && vaultName(other.name) === name)) errors.name = name ? 'vault_name_unique' : 'vault_name_default';
  if (!v.type) errors.type = 'vault_type_required';
  else if (v.type === 'password' && !v.vault_key_id) errors.vault_key_id = 'vault_required';
  else if (v.type === 'script') {
    const script = v.script.trim();
    if (!script) errors.script = 'vault_script_required';
    else if (!/-client(\.[^/\\.]+)?$/.test(script)) errors.script = 'vault_script_client_required';
  }
  return errors;
}

/** An argument of the args picker: required once trimmed. */
export function argError(arg: string): string | null {
  return arg.trim() ? null : 'arg_required';
}

/** Survey variables as the API stores them (type string is sent as '', as Semaphore does). */
export function surveyVarsToApi(vars: SurveyVarDraft[]) {
  return vars.map((v) => ({
    name: v.name.trim(), title: v.title.trim(), description: v.description, type: v.type === 'string' ? '' : v.type,
    required: v.required, default_value: v.default_value, ...(v.do_not_store ? { do_not_store: true } : {}), ...(v.target ? { target: v.target } : {}),
    values: v.type === 'enum' ? v.values.map((x) => ({ name: x.name.trim(), value: x.value })) : [],
    ...(v.type === 'enum' && v.values_url.trim() ? { values_url: v.values_url.trim(), values_url_key_id: v.values_url_key_id } : {}),
  }));
}

/** Whatever the API or a textarea holds → editable drafts. */
export function surveyVarsFromApi(raw: unknown): SurveyVarDraft[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object').map((v) => ({
    name: str(v.name), title: str(v.title), description: str(v.description),
    type: (SURVEY_TYPES as readonly string[]).includes(str(v.type)) ? (str(v.type) as SurveyType) : 'string',
    values: Array.isArray(v.values) ? v.values.map((x: Record<string, unknown>) => ({ name: str(x?.name), value: str(x?.value) })) : [],
    default_value: str(v.default_value), required: v.required === true, do_not_store: v.do_not_store === true,
    target: v.target === 'env' ? 'env' : '',
    values_url: str(v.values_url), values_url_key_id: typeof v.values_url_key_id === 'number' ? v.values_url_key_id : null,
  }));
}

export function vaultsToApi(vaults: VaultDraft[]) {
  return vaults.map((v) => ({
    ...(v.id ? { id: v.id } : {}), name: vaultName(v.name) || null, type: v.type,
    vault_key_id: v.type === 'password' ? v.vault_key_id : null, script: v.type === 'script' ? v.script.trim() : null,
  }));
}

export function vaultsFromApi(raw: unknown): VaultDraft[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object').map((v) => ({
    ...(typeof v.id === 'number' ? { id: v.id } : {}),
    name: str(v.name), type: v.type === 'script' ? 'script' : v.type === '' ? '' : 'password',
    vault_key_id: typeof v.vault_key_id === 'number' ? v.vault_key_id : null, script: str(v.script),
  }));
}

/**
 * The arguments field: a JSON array of strings, or (typed by hand without JavaScript) one
 * argument per line. Answers null when it is neither.
 */
export function parseArguments(text: string): string[] | null {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      return Array.isArray(parsed) && parsed.every((a) => typeof a === 'string') ? parsed : null;
    } catch {
      return null;
    }
  }
  return trimmed.split(/\r?\n/);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
