import type { Db, Tx } from '../../db/database.ts';

/** prefix ending in a non-digit, a run of digits, suffix starting with a non-digit (reference §5.9) */
const VERSION_PATTERN = /^(.*\D)?(\d+)(\D.*)?$/;

/**
 * The next version of a build template: `start_version` for the first build, else the last
 * build's number + 1 (never below the start number) when prefix and suffix still match.
 * @example nextBuildVersion('1.0.0', '1.0.4') === '1.0.5'; nextBuildVersion('v5-beta', null) === 'v5-beta'
 */
export function nextBuildVersion(startVersion: string | null, lastVersion: string | null): string | null {
  if (!startVersion) return null;
  if (!lastVersion) return startVersion;
  const start = VERSION_PATTERN.exec(startVersion);
  const last = VERSION_PATTERN.exec(lastVersion);
  if (!start || !last) return startVersion;
  const [, prefix = '', startNumber, suffix = ''] = start;
  const [, lastPrefix = '', lastNumber, lastSuffix = ''] = last;
  if (prefix !== lastPrefix || suffix !== lastSuffix) return startVersion;
  const next = Math.max(Number(startNumber), Number(lastNumber) + 1);
  return `${prefix}${next}${suffix}`;
}

/** The version a new task of this build template gets. */
export async function computeBuildVersion(db: Db | Tx, templateId: number, startVersion: string | null): Promise<string | null> {
  const last = await db.selectFrom('task').select('version').where('template_id', '=', templateId)
    .orderBy('id', 'desc').limit(1).executeTakeFirst();
  return nextBuildVersion(startVersion, last?.version ?? null);
}

/**
 * The version a deploy task brings: the build task's version, found by following
 * `build_task_id` through intermediate deploy tasks.
 * @example await findIncomingVersion(db, task.build_task_id) // '1.0.3'
 */
export async function findIncomingVersion(db: Db | Tx, buildTaskId: number | null): Promise<string | null> {
  const seen = new Set<number>();
  let id = buildTaskId;
  while (id && !seen.has(id)) {
    seen.add(id);
    const row = await db.selectFrom('task').innerJoin('template', 'template.id', 'task.template_id')
      .select(['task.version', 'task.build_task_id', 'template.type']).where('task.id', '=', id).executeTakeFirst();
    if (!row) return null;
    if (row.type === 'build' || row.version) return row.version;
    id = row.build_task_id;
  }
  return null;
}
