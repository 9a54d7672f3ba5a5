import type { Selectable } from 'kysely';
import type { IntegrationExtractValueTable } from '../db/schema.ts';
import type { Delivery } from './delivery.ts';
import { readJsonPath, stringifyJsonValue } from './json-path.ts';
import { TASK_FIELDS, type TaskField } from '../domain/integrations/integration.ts';

export type ExtractValueRow = Selectable<IntegrationExtractValueTable>;

/** What a delivery contributes to the task it starts. */
export interface ExtractedValues {
  /** `environment` values: the task's extra variables */
  environment: Record<string, string>;
  /** `task` values naming a task field */
  fields: Partial<Record<TaskField, string>>;
  /** `task` values naming anything else: refused, the delivery starts nothing */
  refused: string[];
}

/**
 * Pulls each configured value out of the delivery (a header, a JSON path, or the whole body)
 * and files it by variable type. Values are text; a JSON path that is absent is left out.
 * @example extractValues([{ value_source: 'body', body_data_type: 'json', key: 'ref', variable: 'REF', variable_type: 'environment', ... }], delivery)
 */
export function extractValues(rows: ExtractValueRow[], delivery: Delivery): ExtractedValues {
  const result: ExtractedValues = { environment: {}, fields: {}, refused: [] };
  for (const row of rows) {
    const value = readValue(row, delivery);
    if (value === undefined || !row.variable) continue;
    if (row.variable_type !== 'task') result.environment[row.variable] = value;
    else if ((TASK_FIELDS as readonly string[]).includes(row.variable)) result.fields[row.variable as TaskField] = value;
    else result.refused.push(row.variable);
  }
  return result;
}

function readValue(row: ExtractValueRow, delivery: Delivery): string | undefined {
  if (row.value_source === 'header') return delivery.headers.get(row.key) ?? undefined;
  if (row.value_source !== 'body') return undefined;
  if (row.body_data_type === 'string') return delivery.text;
  if (row.body_data_type !== 'json' || !delivery.jsonValid) return undefined;
  return stringifyJsonValue(readJsonPath(delivery.json, row.key));
}
