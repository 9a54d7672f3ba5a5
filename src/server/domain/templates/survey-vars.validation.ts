import { badRequest } from '../../http/errors.ts';
import type { SurveyVar } from './template.ts';
import type { Db, Tx } from '../../db/database.ts';
import { outgoingUrlProblem } from '../../lib/outgoing-http.ts';
import { assertProjectKey } from '../keys/project-key-ref.ts';

/**
 * Survey variables, trimmed; an enum's values must be present, unique and named, or no answer
 * could be given to it. A name and a title are asked for by the console only: Semaphore's API
 * takes a variable without them (its own API tests send one).
 */
export function normaliseSurveyVars(vars: SurveyVar[]): SurveyVar[] {
  return vars.map((v, i) => {
    const at = `survey_vars[${i}]`;
    const type = v.type === 'string' ? '' : (v.type ?? '');
    const valuesUrl = type === 'enum' ? (v.values_url ?? '').trim() : '';
    const urlProblem = valuesUrl ? outgoingUrlProblem(valuesUrl) : null;
    if (urlProblem) throw badRequest(`${at}.values_url: ${urlProblem}`);
    if (type === 'enum') {
      const values = v.values ?? [];
      if (values.length === 0 && !valuesUrl) throw badRequest(`${at}: Enumeration must have values.`);
      if (values.some((x) => !x.name?.trim())) throw badRequest(`${at}: Value name cannot be empty.`);
      if (new Set(values.map((x) => x.name!.trim())).size !== values.length) throw badRequest(`${at}: Enumeration values must have unique names.`);
    }
    const source = valuesUrl ? { values_url: valuesUrl, values_url_key_id: v.values_url_key_id ?? null } : { values_url: undefined, values_url_key_id: undefined };
    return { ...v, name: (v.name ?? '').trim(), title: (v.title ?? '').trim(), type, ...source };
  });
}

/** Each options URL's key is a key of the project; 400 naming the variable otherwise. */
export async function assertSurveyKeys(db: Db | Tx, projectId: number, vars: SurveyVar[]): Promise<void> {
  for (const [i, v] of vars.entries()) {
    if (v.values_url_key_id) await assertProjectKey(db, projectId, v.values_url_key_id, `survey_vars[${i}].values_url_key_id`);
  }
}
