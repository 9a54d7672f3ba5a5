import type { Db } from '../../../src/server/db/database.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';

/**
 * A project with one finished task and `lines` output rows (some with ANSI colours and an HTML
 * lookalike), written straight to the database as the task engine would.
 */
export async function insertTaskWithOutput(db: Db, ownerId: number, lines: number) {
  const fixture = await insertProjectWithTemplate(db, { ownerId, templateName: 'Deploy web' });
  const base = Date.parse('2026-11-20T10:00:00Z');
  const task = await db.insertInto('task').values({
    project_id: fixture.project.id, template_id: fixture.template.id, status: 'success', user_id: ownerId, integration_id: null,
    schedule_id: null, build_task_id: null, inventory_id: null, playbook: 'run.sh', environment: '{}', arguments: null, git_branch: null,
    message: 'Ship the release', commit_hash: null, commit_message: 'Bump version', version: null, params: '{}',
    created: new Date(base).toISOString(), start: new Date(base).toISOString(), end: new Date(base + 95_000).toISOString(), locked_by: null,
  }).returningAll().executeTakeFirstOrThrow();
  const rows = Array.from({ length: lines }, (_, i) => ({
    task_id: task.id,
    time: new Date(base + i * 10).toISOString(),
    output: i === 1 ? '\u001b[31mred failure\u001b[0m <img src=x onerror=alert(1)>' : `line ${i + 1}`,
  }));
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('task_output').values(rows.slice(i, i + 500)).execute();
  return { ...fixture, task };
}
