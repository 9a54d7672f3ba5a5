import type { Db } from '../../src/server/db/database.ts';
import type { TemplateTable } from '../../src/server/db/schema.ts';
import type { Insertable } from 'kysely';
import type { Caller, World } from './world.ts';
import { createGitRepo } from './git-repo.ts';
import { insertTemplate } from './fixtures.ts';
import { insertEnvironment, insertInventory, insertKey, insertRepository } from './project-rows.ts';

/**
 * An Ansible template "Deploy" running `site.yml` from a git repository made in `dir` with
 * `files`, against localhost over the local connection; `fields` add to the template.
 * @example const { templateId } = await insertLocalAnsibleTemplate(db, w.projectId, join(tmp, 'repo'), { 'site.yml': PLAYBOOK });
 */
export async function insertLocalAnsibleTemplate(db: Db, projectId: number, dir: string, files: Record<string, string>, fields: Partial<Insertable<TemplateTable>> = {}) {
  const repo = createGitRepo(dir, files, 'Add playbook');
  const key = await insertKey(db, projectId, 'None');
  const repository = await insertRepository(db, projectId, key.id, 'Playbooks', `file://${repo.path}`);
  const inventory = await insertInventory(db, projectId, { name: 'Local', inventory: 'localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3' });
  const environment = await insertEnvironment(db, projectId, 'Empty');
  const template = await insertTemplate(db, projectId, {
    name: 'Deploy', app: 'ansible', playbook: 'site.yml', repository_id: repository.id, inventory_id: inventory.id, environment_id: environment.id, ...fields,
  });
  return { templateId: template.id, repositoryId: repository.id, environmentId: environment.id };
}

/**
 * `POST /api/project/{id}/tasks` over real HTTP as one of the world's callers.
 * @example const res = await postTask(url, w, 'task_runner', { template_id: 3, limit: 'web' });
 */
export async function postTask(url: string, w: World, who: Caller, body: Record<string, unknown>) {
  const res = await fetch(`${url}/api/project/${w.projectId}/tasks`, {
    method: 'POST', headers: { ...w.auth[who], 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { id?: number; error?: string } };
}
