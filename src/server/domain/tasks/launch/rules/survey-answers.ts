import { badRequest } from '../../../../http/errors.ts';
import { ownValue } from '../../../../lib/own-value.ts';
import { surveyVarsOf, type StoredSurveyVar } from '../../../templates/stored-survey-vars.ts';
import type { TaskInput } from '../../task.ts';
import type { Launch, LaunchRule } from '../launch.ts';
import { hasOptionsUrl, surveyOptionsOf, type SurveyOption } from '../../../templates/survey-options.ts';

/**
 * Survey rules of seed 001 §5, the same for a person and a trigger: an answer left out takes the
 * variable's default (a trigger has nobody to ask); a required variable with neither is
 * refused ("{title} is required"); an int answer is digits only; an enum answer one of its
 * values. A caller who may not edit the template passes only survey variables: free extra vars
 * (`ansible_python_interpreter`, `ansible_ssh_common_args` …) run commands on the server.
 * Survey secrets travel in `secret`, used for the run and never stored; so do the answers of a
 * variable marked `do_not_store`, whatever its type (which also masks them in the log). An
 * enum whose choices come from a URL is checked against what the URL answers now (kept a
 * minute); a URL that cannot answer refuses the start, saying why.
 */
export const surveyAnswers: LaunchRule = {
  name: 'survey answers',
  async check(launch) {
    const environment = readJsonObject(launch.input.environment, 'environment');
    const secret = textValues(readJsonObject(launch.input.secret, 'secret'));
    const vars = surveyVarsOf(launch.template.survey_vars);
    if (!launch.editor) refuseUndeclaredVariables(vars, { environment, secret });
    for (const v of vars) {
      const given = answerOf(v, environment, secret);
      if (given === undefined && v.type !== 'secret' && v.default_value) environment[v.name] = v.default_value;
      const answer = answerOf(v, environment, secret);
      const answered = answer !== undefined && answer !== null && answer !== '';
      const choices = hasOptionsUrl(v) && answered ? await choicesFromUrl(launch, v) : undefined;
      checkAnswer(choices ? { ...v, values: choices } : v, answer);
      if (v.do_not_store === true) keepOutOfRecord(v.name, environment, secret);
    }
    launch.task.environment = environment;
    launch.task.secret = secret;
  },
};

async function choicesFromUrl(launch: Launch, v: StoredSurveyVar & { values_url: string }): Promise<SurveyOption[]> {
  try {
    return await surveyOptionsOf(launch.deps.db, { box: launch.deps.secrets, sources: launch.deps.config.secret_sources }, launch.template.project_id, v);
  } catch (error) {
    throw badRequest(`${v.title || v.name}: its choices could not be loaded from their URL (${(error as Error).message})`);
  }
}

function answerOf(v: StoredSurveyVar, environment: Record<string, unknown>, secret: Record<string, string>): unknown {
  return v.type === 'secret' || v.do_not_store === true ? ownValue(secret, v.name) ?? ownValue(environment, v.name) : ownValue(environment, v.name);
}

/** Moves an answer from `environment` (stored with the task) to `secret` (held for the run only). */
function keepOutOfRecord(name: string, environment: Record<string, unknown>, secret: Record<string, string>): void {
  const given = ownValue(environment, name);
  delete environment[name];
  if (given === undefined || ownValue(secret, name) !== undefined) return;
  Object.defineProperty(secret, name, { value: textOf(given), enumerable: true, writable: true, configurable: true });
}

function checkAnswer(v: StoredSurveyVar, raw: unknown): void {
  const text = raw === undefined || raw === null ? '' : String(raw);
  const label = v.title || v.name;
  if (v.required && text === '') throw badRequest(`${label} is required`);
  if (v.type === 'int' && text !== '' && !/^\d+$/.test(text)) throw badRequest(`${label} must be an integer`);
  const allowed = v.type === 'enum' ? (v.values ?? []).map((option) => option?.value ?? '') : null;
  if (allowed && text !== '' && !allowed.includes(text)) throw badRequest(`${label} must be one of: ${allowed.join(', ')}`);
}

/** `environment` or `secret` as given: a JSON object, or its text. */
function readJsonObject(value: TaskInput['environment'], field: string): Record<string, unknown> {
  if (value === undefined || value === null || value === '') return {};
  if (typeof value === 'object') return { ...value };
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch { /* reported below */ }
  throw badRequest(`${field}: must be a JSON object`);
}

function textValues(values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) out[k] = textOf(v);
  return out;
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** 400 for any `environment` or `secret` key that is not one of the template's survey variables. */
function refuseUndeclaredVariables(vars: StoredSurveyVar[], given: Record<'environment' | 'secret', Record<string, unknown>>): void {
  const declared = new Set(vars.map((v) => v.name));
  for (const [field, values] of Object.entries(given)) {
    const stray = Object.keys(values).find((key) => !declared.has(key));
    if (stray !== undefined) throw badRequest(`${field}: "${stray}" is not a survey variable of this template`);
  }
}
