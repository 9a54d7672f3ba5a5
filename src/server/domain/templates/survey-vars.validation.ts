import { badRequest } from '../../http/errors.ts';
import type { SurveyVar } from './template.ts';

/** Survey variables: name and title, enum values present, unique and named (seed 001 §5). */
export function normaliseSurveyVars(vars: SurveyVar[]): SurveyVar[] {
  return vars.map((v, i) => {
    const at = `survey_vars[${i}]`;
    if (!v.name?.trim()) throw badRequest(`${at}: Name is required`);
    if (!v.title?.trim()) throw badRequest(`${at}: Title is required`);
    const type = v.type === 'string' ? '' : (v.type ?? '');
    if (type === 'enum') {
      const values = v.values ?? [];
      if (values.length === 0) throw badRequest(`${at}: Enumeration must have values.`);
      if (values.some((x) => !x.name?.trim())) throw badRequest(`${at}: Value name cannot be empty.`);
      if (new Set(values.map((x) => x.name!.trim())).size !== values.length) throw badRequest(`${at}: Enumeration values must have unique names.`);
    }
    return { ...v, name: v.name.trim(), title: v.title.trim(), type };
  });
}
