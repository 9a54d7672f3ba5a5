import type { StoredSurveyVar } from '../templates/stored-survey-vars.ts';
import { ownValue } from '../../lib/own-value.ts';

/** Output names: `^[A-Za-z_][A-Za-z0-9_-]*$` (a hyphenated Terraform output is valid, but fills no variable). */
export const OUTPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
export const MAX_OUTPUTS_FILE_BYTES = 256 * 1024;
export const MAX_OUTPUTS = 100;
export const MAX_OUTPUT_VALUE_BYTES = 32 * 1024;

/**
 * Reads what a task wrote to SEMAPHORE_OUTPUTS_FILE: empty means no outputs; otherwise a JSON
 * object of at most 256 KB with at most 100 values of at most 32 KB, named by OUTPUT_NAME.
 * Throws an Error whose message is the reason the task fails with.
 * @example readOutputsText('{"image_tag": "1.4.2"}') // { image_tag: '1.4.2' }
 */
export function readOutputsText(text: string): Record<string, unknown> {
  if (Buffer.byteLength(text) > MAX_OUTPUTS_FILE_BYTES) throw new Error(`the outputs file is larger than ${MAX_OUTPUTS_FILE_BYTES / 1024} KB`);
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('the outputs file is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the outputs file must hold a JSON object');
  const entries = Object.entries(parsed);
  if (entries.length > MAX_OUTPUTS) throw new Error(`the outputs file has ${entries.length} values; at most ${MAX_OUTPUTS} are allowed`);
  for (const [name, value] of entries) {
    if (!OUTPUT_NAME.test(name)) throw new Error(`output name ${JSON.stringify(name.slice(0, 80))} is not allowed (letters, digits, _ and -, not starting with a digit or -)`);
    if (Buffer.byteLength(JSON.stringify(value)) > MAX_OUTPUT_VALUE_BYTES) throw new Error(`output "${name}" is larger than ${MAX_OUTPUT_VALUE_BYTES / 1024} KB`);
  }
  return Object.fromEntries(entries);
}

/** An output the task's outputs do not hold, and why (Terraform's sensitive outputs, bad names...). */
export interface NotCapturedOutput { name: string; reason: string }

const MAX_NOT_CAPTURED = 1000;

/**
 * What a workflow task left behind, as texts: its outputs file (judged by `readOutputsText`) and
 * the `.not-captured` list beside it (empty: none). Used for a task run here and for the report
 * of a remote runner alike; throws an Error whose message is the reason the task fails with.
 * @example readTaskOutputs('{"a": 1}', '[]') // { outputs: { a: 1 }, notCaptured: [] }
 */
export function readTaskOutputs(outputsText: string, notCapturedText: string): { outputs: Record<string, unknown>; notCaptured: NotCapturedOutput[] } {
  const outputs = readOutputsText(outputsText);
  let list: unknown = [];
  try {
    list = notCapturedText.trim() ? JSON.parse(notCapturedText) : [];
  } catch {
    throw new Error('the list of outputs not captured is not valid JSON');
  }
  const ok = Array.isArray(list) && list.length <= MAX_NOT_CAPTURED
    && list.every((e) => e && typeof e === 'object' && typeof e.name === 'string' && typeof e.reason === 'string' && e.name.length <= 1024 && e.reason.length <= 1024);
  if (!ok) throw new Error(`the list of outputs not captured must be at most ${MAX_NOT_CAPTURED} {name, reason} entries`);
  return { outputs, notCaptured: (list as NotCapturedOutput[]).map((e) => ({ name: e.name, reason: e.reason })) };
}

/**
 * A value as a survey variable of `type` takes it, or the reason it does not fit: `int` takes a
 * number or digit string; `enum`/`select` only their own options; string and text anything
 * (objects and lists as compact JSON); `secret` nothing, ever.
 * @example coerceToSurvey({ name: 'replicas', type: 'int' }, '3') // { value: '3' }
 */
export function coerceToSurvey(variable: StoredSurveyVar, value: unknown): { value: string } | { reason: string } {
  const type = variable.type ?? '';
  if (type === 'secret') return { reason: 'a secret variable is never filled by a connection' };
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (type === 'int') {
    if (typeof value === 'number' && Number.isInteger(value)) return { value: String(value) };
    if (typeof value === 'string' && /^\d+$/.test(value)) return { value };
    return { reason: 'not an integer' };
  }
  if (type === 'enum' || type === 'select') {
    const options = (variable.values ?? []).map((o) => o?.value ?? '');
    return options.includes(text) ? { value: text } : { reason: `not one of: ${options.join(', ')}` };
  }
  return { value: text ?? '' };
}

/** A connection delivering outputs into a task node. */
export interface Delivery {
  edge_id: number;
  input_mode: string;
  input_mappings: { variable: string; output: string }[];
  /** the node whose outputs it carries, and that node's task (for the log line) */
  source_node_id: number;
  source_task_id: number | null;
  outputs: Record<string, unknown>;
}

/**
 * Fills survey variables from the outputs of the connections that carry them. Explicit
 * mappings beat by-name deliveries; between two of a kind the older connection (lower id) wins.
 * Each filled variable gives a log line naming its source; a value that does not fit its
 * variable gives a line with the reason, and the node's own value stays.
 * @example deliverInputs(survey, [delivery]).values // { image_tag: '1.4.2' }
 */
export function deliverInputs(survey: StoredSurveyVar[], deliveries: Delivery[]): { values: Record<string, string>; lines: string[] } {
  const byName = new Map(survey.map((v) => [v.name, v]));
  const ranked = [...deliveries].sort((a, b) => rank(a) - rank(b) || a.edge_id - b.edge_id);
  const values: Record<string, string> = {};
  const lines: string[] = [];
  for (const delivery of ranked) {
    const pairs = delivery.input_mode === 'explicit'
      ? delivery.input_mappings.map((m) => [m.variable, m.output] as const)
      : Object.keys(delivery.outputs).filter((name) => byName.has(name)).map((name) => [name, name] as const);
    for (const [variableName, outputName] of pairs) {
      const variable = byName.get(variableName);
      const value = ownValue(delivery.outputs, outputName);
      if (!variable || value === undefined || variableName in values) continue;
      const source = `output "${outputName}" of node ${delivery.source_node_id}${delivery.source_task_id ? ` (task #${delivery.source_task_id})` : ''}`;
      const fitted = coerceToSurvey(variable, value);
      if ('reason' in fitted) {
        lines.push(`Input "${variableName}" not filled from ${source}: ${fitted.reason}`);
        continue;
      }
      values[variableName] = fitted.value;
      lines.push(`Input "${variableName}" <- ${source}`);
    }
  }
  return { values, lines };
}

function rank(delivery: Delivery): number {
  return delivery.input_mode === 'explicit' ? 0 : 1;
}
