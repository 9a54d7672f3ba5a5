import type { Db, Tx } from '../../db/database.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { recordEvent } from '../events/event.repository.ts';
import type { Actor } from '../project-resource.ts';
import { TASK_FIELDS } from './integration.ts';
import type { ExtractValueInput, ExtractValueRow, IntegrationRow, MatcherInput, MatcherRow } from './integration.ts';

const blank = (v: string | null | undefined) => v === undefined || v === null || v.trim() === '';

/** Restored backups skip the API schema, so the allowed values are checked here as well. */
function oneOf(field: string, value: string | null | undefined, allowed: string[]) {
  if (!blank(value) && !allowed.includes(value!)) throw badRequest(`${field}: use one of ${allowed.join(', ')}`);
}
const BODY_TYPES = ['json', 'xml', 'string'];

/** Matcher rules of seed 001 §5, with the console's own messages. `current` fills omitted fields on update. */
export function matcherValues(input: MatcherInput, current?: MatcherRow) {
  const merged = { ...current, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) } as MatcherInput;
  oneOf('match_type', merged.match_type, ['body', 'header']);
  oneOf('method', merged.method, ['equals', 'unequals', 'contains']);
  oneOf('body_data_type', merged.body_data_type, BODY_TYPES);
  if (blank(merged.name)) throw badRequest('Name is required');
  if (blank(merged.match_type)) throw badRequest('Match source is required');
  const isBody = merged.match_type === 'body';
  if (isBody && blank(merged.body_data_type)) throw badRequest('Body Data Format is required');
  if (!(isBody && merged.body_data_type === 'string') && blank(merged.key)) throw badRequest('Key is required');
  if (blank(merged.method)) throw badRequest('Comparison Method is required');
  if (blank(merged.value)) throw badRequest('Value is required');
  return {
    name: merged.name!.trim(), match_type: merged.match_type!, method: merged.method!,
    body_data_type: isBody ? merged.body_data_type! : '', key: (merged.key ?? '').trim(), value: merged.value!,
  };
}

/** Extracted-value rules of seed 001 §5; `variable_type` left out means `environment` (2.10 clients). */
export function extractValueValues(input: ExtractValueInput, current?: ExtractValueRow) {
  const merged = { ...current, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) } as ExtractValueInput;
  oneOf('value_source', merged.value_source, ['body', 'header']);
  oneOf('body_data_type', merged.body_data_type, BODY_TYPES);
  oneOf('variable_type', merged.variable_type, ['environment', 'task']);
  if (blank(merged.name)) throw badRequest('Name is required');
  if (blank(merged.value_source)) throw badRequest('Value Source is required');
  const isBody = merged.value_source === 'body';
  if (isBody && blank(merged.body_data_type)) throw badRequest('Body Data Type is required');
  if (!(isBody && merged.body_data_type === 'string') && blank(merged.key)) throw badRequest('Key is required');
  if (merged.variable_type === undefined) merged.variable_type = 'environment';
  if (blank(merged.variable_type)) throw badRequest('Variable Type is required');
  if (blank(merged.variable)) throw badRequest('Variable is required');
  if (merged.variable_type === 'task' && !(TASK_FIELDS as readonly string[]).includes(merged.variable!.trim())) {
    throw badRequest(`variable: a task value may set only ${TASK_FIELDS.join(', ')}`);
  }
  return {
    name: merged.name!.trim(), value_source: merged.value_source!, body_data_type: isBody ? merged.body_data_type! : '',
    key: (merged.key ?? '').trim(), variable: merged.variable!.trim(), variable_type: merged.variable_type!,
  };
}

export async function findMatcher(db: Db | Tx, integrationId: number, id: number): Promise<MatcherRow> {
  const row = await db.selectFrom('integration_matcher').selectAll().where('id', '=', id).where('integration_id', '=', integrationId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function findExtractValue(db: Db | Tx, integrationId: number, id: number): Promise<ExtractValueRow> {
  const row = await db.selectFrom('integration_extract_value').selectAll().where('id', '=', id).where('integration_id', '=', integrationId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export function listMatchers(db: Db | Tx, integrationId: number): Promise<MatcherRow[]> {
  return db.selectFrom('integration_matcher').selectAll().where('integration_id', '=', integrationId).orderBy('id').execute();
}

export function listExtractValues(db: Db | Tx, integrationId: number): Promise<ExtractValueRow[]> {
  return db.selectFrom('integration_extract_value').selectAll().where('integration_id', '=', integrationId).orderBy('id').execute();
}

function checkBodyIntegration(input: { integration_id?: number }, integration: IntegrationRow) {
  if (input.integration_id !== undefined && input.integration_id !== 0 && input.integration_id !== integration.id) {
    throw badRequest('Integration ID in body and URL must be the same');
  }
}

function logPart(tx: Tx, actor: Actor, integration: IntegrationRow, type: 'integrationmatcher' | 'integrationextractvalue', id: number, name: string, verb: string) {
  const label = type === 'integrationmatcher' ? 'Integration matcher' : 'Integration extract value';
  return recordEvent(tx, { ...actor, integrationId: integration.id, objectType: type, objectId: id, description: `${label} ${name} ${verb}` });
}

export async function createMatcher(tx: Tx, actor: Actor, integration: IntegrationRow, input: MatcherInput): Promise<MatcherRow> {
  checkBodyIntegration(input, integration);
  const row = await tx.insertInto('integration_matcher').values({ ...matcherValues(input), integration_id: integration.id }).returningAll().executeTakeFirstOrThrow();
  await logPart(tx, actor, integration, 'integrationmatcher', row.id, row.name, 'created');
  return row;
}

export async function updateMatcher(tx: Tx, actor: Actor, integration: IntegrationRow, current: MatcherRow, input: MatcherInput): Promise<void> {
  checkBodyIntegration(input, integration);
  const values = matcherValues(input, current);
  await tx.updateTable('integration_matcher').set(values).where('id', '=', current.id).execute();
  await logPart(tx, actor, integration, 'integrationmatcher', current.id, values.name, 'updated');
}

export async function deleteMatcher(tx: Tx, actor: Actor, integration: IntegrationRow, current: MatcherRow): Promise<void> {
  await tx.deleteFrom('integration_matcher').where('id', '=', current.id).execute();
  await logPart(tx, actor, integration, 'integrationmatcher', current.id, current.name, 'deleted');
}

export async function createExtractValue(tx: Tx, actor: Actor, integration: IntegrationRow, input: ExtractValueInput): Promise<ExtractValueRow> {
  checkBodyIntegration(input, integration);
  const row = await tx.insertInto('integration_extract_value').values({ ...extractValueValues(input), integration_id: integration.id }).returningAll().executeTakeFirstOrThrow();
  await logPart(tx, actor, integration, 'integrationextractvalue', row.id, row.name, 'created');
  return row;
}

export async function updateExtractValue(tx: Tx, actor: Actor, integration: IntegrationRow, current: ExtractValueRow, input: ExtractValueInput): Promise<void> {
  checkBodyIntegration(input, integration);
  const values = extractValueValues(input, current);
  await tx.updateTable('integration_extract_value').set(values).where('id', '=', current.id).execute();
  await logPart(tx, actor, integration, 'integrationextractvalue', current.id, values.name, 'updated');
}

export async function deleteExtractValue(tx: Tx, actor: Actor, integration: IntegrationRow, current: ExtractValueRow): Promise<void> {
  await tx.deleteFrom('integration_extract_value').where('id', '=', current.id).execute();
  await logPart(tx, actor, integration, 'integrationextractvalue', current.id, current.name, 'deleted');
}
