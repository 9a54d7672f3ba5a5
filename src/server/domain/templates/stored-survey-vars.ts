/** A survey variable as a template's `survey_vars` column holds it, read leniently. */
export interface StoredSurveyVar {
  name: string;
  title?: string;
  type?: string;
  target?: string;
  required?: boolean;
  /** the answer a start that gives none takes */
  default_value?: string | null;
  /** its answer travels as a survey secret does: used for the run, never stored */
  do_not_store?: boolean;
  /** the choices of an `enum` variable */
  values?: ({ name?: string | null; value?: string | null } | null)[] | null;
  /** an `enum` variable's choices come from this URL instead (fetched when a task is launched) */
  values_url?: string | null;
  /** the project key sent to `values_url` (login/password: Basic auth; string: bearer token) */
  values_url_key_id?: number | null;
}

/** The template's survey variables (JSON column), tolerating junk. */
export function surveyVarsOf(surveyJson: string): StoredSurveyVar[] {
  try {
    const list = JSON.parse(surveyJson);
    return Array.isArray(list) ? list.filter((v) => v && typeof v.name === 'string') : [];
  } catch {
    return [];
  }
}
