import { join } from 'node:path';
import { ADMIN } from './console-server.ts';
import type { ConsoleServer } from './console-server.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { waitForTask } from '../../support/engine.ts';
import { insertOutputLines } from '../../../src/server/engine/output/insert-output.ts';

export { waitForTask };

/** A JSON client of the runner API signed in as the env admin (session cookie). */
export async function adminApi(server: ConsoleServer) {
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }),
  });
  if (login.status !== 204) throw new Error(`API sign-in failed: ${login.status}`);
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return {
    cookie,
    /** POST /api/project/{id}/tasks; returns the created task's id. */
    async runTask(projectId: number, body: Record<string, unknown>): Promise<number> {
      const res = await fetch(`${server.url}/api/project/${projectId}/tasks`, {
        method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`POST tasks answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { id: number }).id;
    },
    /** A JSON request that must succeed; answers the parsed body (undefined when empty). */
    async send<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(server.url + path, {
        method, headers: { 'content-type': 'application/json', cookie }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
    async get<T>(path: string): Promise<T> {
      const res = await fetch(server.url + path, { headers: { cookie } });
      if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
      return (await res.json()) as T;
    },
  };
}

/**
 * A project (owned by the admin) whose bash templates run scripts from a real local git
 * repository made of `files`; the first template runs `playbook`, `addTemplate` adds more.
 * @example const p = await insertScriptProject(server, { 'run.sh': 'echo hi' }, 'run.sh');
 */
export async function insertScriptProject(server: ConsoleServer, files: Record<string, string>, playbook: string, templateName = 'Deploy web') {
  const { db } = server.deps;
  const admin = await db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
  const repo = createGitRepo(join(server.tmp, `repo-${Date.now()}`), files, 'Bump version');
  const fixture = await insertProjectWithTemplate(db, { ownerId: admin.id, gitUrl: `file://${repo.path}`, playbook, templateName });
  return {
    ...fixture, adminId: admin.id,
    /** another bash template in the same project and repository */
    addTemplate: (name: string, script: string) => insertTemplate(db, fixture.project.id, { name, playbook: script, repository_id: fixture.repository.id }),
  };
}

/**
 * A finished task of the project whose log has `count` lines (`line 1` … by default), written
 * straight to the table in batches, as a long run would have left it.
 * @example const taskId = await insertFinishedTask(server, fx, 200_000);
 */
export async function insertFinishedTask(server: ConsoleServer, fx: { project: { id: number }; template: { id: number }; adminId: number }, count: number,
  lineText: (n: number) => string = (n) => `line ${n}`): Promise<number> {
  const { db } = server.deps;
  const time = new Date().toISOString();
  const task = await db.insertInto('task').values({
    project_id: fx.project.id, template_id: fx.template.id, status: 'success', user_id: fx.adminId, playbook: '', environment: '{}',
    message: 'long log', commit_message: '', params: '{}', created: time, start: time, end: time,
  }).returning('id').executeTakeFirstOrThrow();
  for (let i = 0; i < count; i += 10_000) {
    await insertOutputLines(db, task.id, Array.from({ length: Math.min(10_000, count - i) }, (_, k) => ({ time, output: lineText(i + k + 1) })));
  }
  return task.id;
}
