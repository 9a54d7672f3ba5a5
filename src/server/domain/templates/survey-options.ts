import type { Db, Tx } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { OutgoingError, sendOutgoing } from '../../lib/outgoing-http.ts';
import { readKeySecret } from '../keys/key-secret.ts';
import { isExternalSourceType, readKeySource } from '../keys/key-source.ts';
import type { SecretSourcesPolicy } from '../../config/config.ts';
import type { StoredSurveyVar } from './stored-survey-vars.ts';

/** One choice of an enum survey variable. */
export interface SurveyOption {
  name: string;
  value: string;
}

/** What the launch dialog gets for one variable whose choices come from a URL. */
export type SurveyOptionsAnswer = { values: SurveyOption[] } | { error: string };

/** How long fetched choices are used before the URL is asked again. */
const FRESH_MS = 60 * 1000;
const TIMEOUT_MS = 10_000;
const ANSWER_LIMIT = 256 * 1024;
const MAX_OPTIONS = 1000;

/** A source that could not give its choices; `message` says why, in words for the person launching. */
export class SurveyOptionsUnavailable extends Error {}

/** Whether the variable takes its choices from a URL (an enum with `values_url`). */
export function hasOptionsUrl(v: StoredSurveyVar): v is StoredSurveyVar & { values_url: string } {
  return v.type === 'enum' && typeof v.values_url === 'string' && v.values_url !== '';
}

type Cache = Map<string, { values: SurveyOption[]; at: number }>;
/** per database, as the key ids are */
const caches = new WeakMap<Db | Tx, Cache>();

/**
 * The choices of an enum variable with `values_url`: the URL's answer (a JSON list of strings or
 * of `{name, value}`), fetched through the outgoing-HTTP client with the project key
 * `values_url_key_id` when one is named (a login/password key as Basic auth, a string key as a
 * bearer token), kept for a minute. Throws SurveyOptionsUnavailable with the reason.
 * @example const values = await surveyOptionsOf(db, deps.secrets, projectId, v);
 */
export async function surveyOptionsOf(db: Db | Tx, keys: KeyReading, projectId: number, v: StoredSurveyVar & { values_url: string }): Promise<SurveyOption[]> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, cache = new Map());
  const keyId = typeof v.values_url_key_id === 'number' ? v.values_url_key_id : null;
  const cacheKey = `${projectId}\n${keyId ?? ''}\n${v.values_url}`;
  const cached = cache.get(cacheKey);
  if (cached && Date.now() - cached.at < FRESH_MS) return cached.values;
  const values = await fetchOptions(v.values_url, await authorizationOf(db, keys, projectId, keyId));
  cache.set(cacheKey, { values, at: Date.now() });
  return values;
}

/** Every URL-sourced variable's choices, or the reason it has none, by variable name. */
export async function loadSurveyOptions(db: Db | Tx, keys: KeyReading, projectId: number, vars: StoredSurveyVar[]): Promise<Record<string, SurveyOptionsAnswer>> {
  const answers: Record<string, SurveyOptionsAnswer> = {};
  await Promise.all(vars.filter(hasOptionsUrl).map(async (v) => {
    const answer = await surveyOptionsOf(db, keys, projectId, v).then((values) => ({ values }), (error: Error) => ({ error: error.message }));
    Object.defineProperty(answers, v.name, { value: answer, enumerable: true });
  }));
  return answers;
}

/** What reading a key takes: the secret box, and the server sources keys may read from. */
export interface KeyReading {
  box: SecretBox;
  sources: SecretSourcesPolicy;
}

/**
 * The Authorization header of the key: its stored secret, or for a key read from a server
 * variable or file that value (a login/password key's password). Keys in a secret storage are
 * not read here.
 */
async function authorizationOf(db: Db | Tx, keys: KeyReading, projectId: number, keyId: number | null): Promise<Record<string, string>> {
  if (keyId === null) return {};
  const row = await db.selectFrom('access_key').select(['type', 'secret', 'source_storage_type', 'source_storage_key'])
    .where('id', '=', keyId).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw new SurveyOptionsUnavailable('the key for the options URL no longer exists');
  const secret = readKeySecret(keys.box, row);
  const sourced = isExternalSourceType(row.source_storage_type) ? serverValue(keys.sources, row.source_storage_type, row.source_storage_key ?? '') : null;
  if (secret.type === 'login_password') return { authorization: `Basic ${Buffer.from(`${secret.login}:${sourced ?? secret.password}`).toString('base64')}` };
  if (secret.type === 'string') return { authorization: `Bearer ${sourced ?? secret.value}` };
  return {};
}

function serverValue(sources: SecretSourcesPolicy, type: 'env' | 'file', ref: string): string {
  try {
    return readKeySource(sources, type, ref);
  } catch (error) {
    throw new SurveyOptionsUnavailable(`the key for the options URL could not be read (${(error as Error).message})`);
  }
}

async function fetchOptions(url: string, headers: Record<string, string>): Promise<SurveyOption[]> {
  let answer;
  try {
    answer = await sendOutgoing(url, { headers: { accept: 'application/json', ...headers }, timeoutMs: TIMEOUT_MS, answerLimit: ANSWER_LIMIT });
  } catch (error) {
    throw new SurveyOptionsUnavailable(error instanceof OutgoingError ? error.message : 'could not reach the service');
  }
  if (answer.status < 200 || answer.status > 299) throw new SurveyOptionsUnavailable(`the options URL answered ${answer.status}`);
  let list: unknown;
  try {
    list = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new SurveyOptionsUnavailable('the options URL did not answer with JSON');
  }
  const options = Array.isArray(list) ? list.map(optionOf) : null;
  if (!options || options.some((o) => o === null)) {
    throw new SurveyOptionsUnavailable('the options URL must answer with a JSON list of strings or of {"name", "value"} objects');
  }
  if (options.length > MAX_OPTIONS) throw new SurveyOptionsUnavailable(`the options URL answered more than ${MAX_OPTIONS} options`);
  return options as SurveyOption[];
}

function optionOf(item: unknown): SurveyOption | null {
  if (typeof item === 'string') return { name: item, value: item };
  if (!item || typeof item !== 'object' || Array.isArray(item)) return null;
  const { name, value } = item as Record<string, unknown>;
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  return { name: typeof name === 'string' && name ? name : String(value), value: String(value) };
}
