import type { Db, Tx } from '../../db/database.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { toFlag } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import { requireInProject, requireOptionalInProject } from '../shared/project-refs.ts';
import type { Actor } from '../project-resource.ts';
import { AUTH_METHODS, type IntegrationInput, type IntegrationRow } from './integration.ts';

/** Methods that check a secret, and those that also need the header it arrives in. */
const NEEDS_SECRET = new Set(['github', 'bitbucket', 'token', 'hmac', 'basic']);
const NEEDS_HEADER = new Set(['token', 'hmac']);

export async function findIntegration(db: Db | Tx, projectId: number, id: number): Promise<IntegrationRow> {
  const row = await db.selectFrom('integration').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export function listIntegrations(db: Db | Tx, projectId: number, order: 'asc' | 'desc' = 'asc'): Promise<IntegrationRow[]> {
  return db.selectFrom('integration').selectAll().where('project_id', '=', projectId).orderBy('name', order).orderBy('id').execute();
}

/** Validates an integration body (reference §3.11): name, template and key of the project, auth rules. */
export async function integrationValues(db: Db | Tx, projectId: number, input: IntegrationInput, current?: IntegrationRow) {
  if (input.project_id !== undefined && input.project_id !== projectId) throw badRequest('Project ID in body and URL must be the same');
  if (current && input.id !== undefined && input.id !== current.id) throw badRequest('Integration ID in body and URL must be the same');
  const name = (input.name ?? current?.name ?? '').trim();
  if (!name) throw badRequest('Name is required');
  const templateId = input.template_id ?? current?.template_id;
  if (!templateId) throw badRequest('Template is required');
  await requireInProject(db, 'template', templateId, projectId, 'template_id');
  const authMethod = input.auth_method ?? current?.auth_method ?? 'none';
  // Restored backups skip the API schema, so the method is checked here as well.
  if (!(AUTH_METHODS as readonly string[]).includes(authMethod)) throw badRequest(`auth_method: use one of ${AUTH_METHODS.filter(Boolean).join(', ')}`);
  const secretId = input.auth_secret_id !== undefined ? input.auth_secret_id : current?.auth_secret_id ?? null;
  const header = (input.auth_header !== undefined ? input.auth_header : current?.auth_header ?? null)?.trim() || null;
  if (NEEDS_SECRET.has(authMethod) && !secretId) throw badRequest(`auth_secret_id: a key is required for ${authMethod} authentication`);
  if (NEEDS_HEADER.has(authMethod) && !header) throw badRequest(`auth_header: a header name is required for ${authMethod} authentication`);
  await requireOptionalInProject(db, 'access_key', secretId, projectId, 'auth_secret_id');
  return {
    name, template_id: templateId, auth_method: authMethod, auth_secret_id: NEEDS_SECRET.has(authMethod) ? secretId : null,
    auth_header: header, searchable: input.searchable !== undefined ? toFlag(input.searchable) : current?.searchable ?? 0,
    task_params: input.task_params !== undefined ? JSON.stringify(input.task_params ?? {}) : current?.task_params ?? '{}',
    once_within: input.once_within !== undefined ? input.once_within : current?.once_within ?? null,
  };
}

export async function createIntegration(tx: Tx, actor: Actor, input: IntegrationInput): Promise<IntegrationRow> {
  const values = await integrationValues(tx, actor.projectId, input);
  const row = await tx.insertInto('integration').values({ ...values, project_id: actor.projectId, owner_id: actor.userId }).returningAll().executeTakeFirstOrThrow();
  await logIntegration(tx, actor, row, 'created');
  return row;
}

export async function updateIntegration(tx: Tx, actor: Actor, current: IntegrationRow, input: IntegrationInput): Promise<void> {
  const values = await integrationValues(tx, actor.projectId, input, current);
  await tx.updateTable('integration').set({ ...values, owner_id: actor.userId }).where('id', '=', current.id).execute();
  await logIntegration(tx, actor, { ...current, ...values }, 'updated');
}

/** Deletes an integration with its matchers, extracted values and aliases. */
export async function deleteIntegration(tx: Tx, actor: Actor, current: IntegrationRow): Promise<void> {
  await tx.deleteFrom('integration').where('id', '=', current.id).execute();
  await logIntegration(tx, actor, current, 'deleted');
}

function logIntegration(tx: Tx, actor: Actor, row: IntegrationRow, verb: string) {
  return recordEvent(tx, { ...actor, integrationId: row.id, objectType: 'integration', objectId: row.id, description: `Integration ${row.name} ${verb}` });
}

/** What hangs off an integration (the console's references dialog reads the usual keys too). */
export async function findIntegrationRefs(db: Db | Tx, integrationId: number) {
  const matchers = await db.selectFrom('integration_matcher').select(['id', 'name']).where('integration_id', '=', integrationId).orderBy('id').execute();
  const values = await db.selectFrom('integration_extract_value').select(['id', 'name']).where('integration_id', '=', integrationId).orderBy('id').execute();
  return { templates: [], inventories: [], repositories: [], schedules: [], matchers, values };
}
