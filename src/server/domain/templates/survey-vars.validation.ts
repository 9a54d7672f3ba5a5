import { badRequest } from '../../http/errors.ts';
import type { SurveyVar } from './template.ts';

/**
 * Survey variables, trimmed; an enum's values must be present, unique and named, or no answer
 * could be given to it. A name and a title are asked for by the console only: Semaphore's API
 * takes a variable without them (its own API tests send one).
 */
export function normaliseSurveyVars(vars: SurveyVar[]): SurveyVar[] {
  return vars.map((v, i) => {
    const at = `survey_vars[${i}]`;
    const type = v.type === 'string' ? '' : (v.type ?? '');
    if (type === 'enum') {
      const values = v.values ?? [];
      if (values.length === 0) throw badRequest(`${at}: Enumeration must have values.`);
      if (values.some((x) => !x.name?.trim())) throw badRequest(`${at}: Value name cannot be empty.`);
      if (new Set(values.map((x) => x.name!.trim())).size !== values.length) throw badRequest(`${at}: Enumeration values must have unique names.`);
    }
    return { ...v, name: (v.name ?? '').trim(), title: (v.title ?? '').trim(), type };
  });
}
