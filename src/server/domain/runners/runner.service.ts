import type { Db, Tx } from '../../db/database.ts';
import type { RunnerRow } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { newRunnerKeyPair, newRunnerToken, tokenHash } from './runner-crypto.ts';
import { parseTags, tagsOf, type RunnerInput } from './runner.ts';

/** Which runners a route manages: the global ones (null) or one project's. */
export type RunnerScope = number | null;

const inScope = (scope: RunnerScope) => (qb: any) => (scope === null ? qb.where('project_id', 'is', null) : qb.where('project_id', '=', scope));

export async function listRunners(db: Db, scope: RunnerScope, page?: { offset: number; limit: number }): Promise<{ rows: RunnerRow[]; total: number }> {
  let q = db.selectFrom('runner').selectAll().$call(inScope(scope)).orderBy('id');
  if (page) q = q.offset(page.offset).limit(page.limit);
  const rows = await q.execute();
  const count = await db.selectFrom('runner').select((eb) => eb.fn.countAll<number>().as('n')).$call(inScope(scope)).executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

export async function findRunner(db: Db, scope: RunnerScope, id: number): Promise<RunnerRow> {
  const row = await db.selectFrom('runner').selectAll().$call(inScope(scope)).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** A created runner with the secrets shown once. */
export interface CreatedRunner { row: RunnerRow; token?: string; private_key?: string }

/**
 * Creates a runner. Registered (the default): it gets its token and key pair now, returned once.
 * `registered: false`: no credentials, inactive until registered with a registration token.
 */
export async function createRunner(db: Db | Tx, scope: RunnerScope, input: RunnerInput): Promise<CreatedRunner> {
  if (scope !== null && input.project_id !== undefined && input.project_id !== scope) throw badRequest('project_id: does not match the project of the URL');
  const registered = input.registered ?? true;
  const token = registered ? newRunnerToken() : undefined;
  const keys = registered ? newRunnerKeyPair() : undefined;
  const row = await db.insertInto('runner').values({
    project_id: scope, name: input.name ?? '', webhook: input.webhook ?? '', max_parallel_tasks: input.max_parallel_tasks ?? 0,
    active: registered && (input.active ?? true) ? 1 : 0, tags: JSON.stringify(tagsOf(input)),
    token_hash: token ? tokenHash(token) : null, registration_token_hash: null, public_key: keys?.publicKey ?? null,
    touched: null, cleaning_requested: null, created: new Date().toISOString(),
  }).returningAll().executeTakeFirstOrThrow();
  if (input.is_default) await makeDefault(db, row);
  return { row: { ...row, is_default: input.is_default ? 1 : 0 }, token, private_key: keys?.privateKey };
}

export async function updateRunner(db: Db | Tx, row: RunnerRow, input: RunnerInput): Promise<void> {
  if (row.project_id !== null && input.project_id !== undefined && input.project_id !== row.project_id) throw badRequest('project_id: does not match the project of the URL');
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.webhook !== undefined ? { webhook: input.webhook } : {}),
    ...(input.max_parallel_tasks !== undefined ? { max_parallel_tasks: input.max_parallel_tasks } : {}),
    ...(input.active !== undefined ? { active: input.active ? 1 : 0 } : {}),
    ...(input.tag !== undefined || input.tags !== undefined ? { tags: JSON.stringify(tagsOf(input)) } : {}),
  };
  if (input.is_default) await makeDefault(db, row);
  else if (input.is_default === false) Object.assign(changes, { is_default: 0 });
  // a body naming no field changes nothing (an UPDATE with an empty SET is not SQL)
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('runner').set(changes).where('id', '=', row.id).execute();
}

/**
 * Makes the runner its scope's only default runner (the project's, or the global one). Run it in
 * the transaction of the change that asks for it, so two defaults are never seen.
 */
async function makeDefault(tx: Db | Tx, row: RunnerRow): Promise<void> {
  let others = tx.updateTable('runner').set({ is_default: 0 }).where('id', '!=', row.id).where('is_default', '=', 1);
  others = row.project_id === null ? others.where('project_id', 'is', null) : others.where('project_id', '=', row.project_id);
  await others.execute();
  await tx.updateTable('runner').set({ is_default: 1 }).where('id', '=', row.id).execute();
}

/** Deletes the runner; its waiting and starting tasks go back to the queue. */
export async function deleteRunner(db: Db | Tx, row: RunnerRow): Promise<void> {
  await db.updateTable('task').set({ status: 'waiting', locked_by: null, runner_id: null }).where('runner_id', '=', row.id).where('status', '=', 'starting').execute();
  await db.deleteFrom('runner').where('id', '=', row.id).execute();
}

export async function setRunnerActive(db: Db | Tx, row: RunnerRow, active: boolean): Promise<void> {
  await db.updateTable('runner').set({ active: active ? 1 : 0 }).where('id', '=', row.id).execute();
}

/** `DELETE …/cache`: the runner clears its repository cache on its next contact. */
export async function requestCleaning(db: Db | Tx, row: RunnerRow): Promise<void> {
  await db.updateTable('runner').set({ cleaning_requested: new Date().toISOString() }).where('id', '=', row.id).execute();
}

/** A new one-time registration token for a runner that has no credentials yet. */
export async function newRegistrationToken(db: Db | Tx, row: RunnerRow): Promise<string> {
  if (row.token_hash !== null) throw badRequest('Runner is already registered');
  const token = newRunnerToken();
  await db.updateTable('runner').set({ registration_token_hash: tokenHash(token) }).where('id', '=', row.id).execute();
  return token;
}

/** `[{tag, number_of_runners}]` of the scope's runners (a project also sees the global ones). */
export async function runnerTags(db: Db, projectId: number | null): Promise<{ tag: string; number_of_runners: number }[]> {
  let q = db.selectFrom('runner').select('tags');
  q = projectId === null ? q.where('project_id', 'is', null) : q.where((w) => w.or([w('project_id', 'is', null), w('project_id', '=', projectId)]));
  const counts = new Map<string, number>();
  for (const { tags } of await q.execute()) for (const t of parseTags(tags)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([tag, number_of_runners]) => ({ tag, number_of_runners }));
}
