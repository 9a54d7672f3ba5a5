import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startWithFixtureProject, type FixtureProject } from '../../support/fixture-server.ts';
import type { Auth, TestServer } from '../../support/harness.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';

for (const dialect of DIALECTS) {
  describe(`several variable groups per template and at launch (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let f: FixtureProject;
    let p: string;
    let second: number;
    let third: number;
    let foreign: number;
    const bash = (name: string, extra: Record<string, unknown> = {}) => ({ name, app: 'bash', playbook: 'run.sh', repository_id: f.repository.id, ...extra });
    const groupsOf = async (id: number) => (await s.call('GET', `${p}/templates/${id}`, undefined, admin)).body;

    beforeAll(async () => {
      ({ s, admin, f } = await startWithFixtureProject(dialect));
      p = `/api/project/${f.project.id}`;
      second = (await s.call('POST', `${p}/environment`, { name: 'Second', project_id: f.project.id, json: '{}', env: '{}' }, admin)).body.id;
      third = (await s.call('POST', `${p}/environment`, { name: 'Third', project_id: f.project.id, json: '{}', env: '{}' }, admin)).body.id;
      foreign = (await insertProjectWithTemplate(s.deps.db, { ownerId: 1, templateName: 'Elsewhere' })).environment.id;
    });
    afterAll(async () => { await s.close(); });

    it('keeps environment_ids in order; environment_id reads as the first', async () => {
      const res = await s.call('POST', `${p}/templates`, bash('Ordered', { environment_ids: [third, f.environment.id, second] }), admin);
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ environment_ids: [third, f.environment.id, second], environment_id: third });
      expect(await groupsOf(res.body.id)).toMatchObject({ environment_ids: [third, f.environment.id, second], environment_id: third });
      expect((await s.call('PUT', `${p}/templates/${res.body.id}`, { ...res.body, environment_ids: [second, third] }, admin)).status).toBe(204);
      expect(await groupsOf(res.body.id)).toMatchObject({ environment_ids: [second, third], environment_id: second });
    });

    it('an old client writing only environment_id replaces the first group and keeps the others; null clears them', async () => {
      const id = (await s.call('POST', `${p}/templates`, bash('Old client', { environment_ids: [second, third] }), admin)).body.id;
      const { environment_ids: _ids, ...old } = await groupsOf(id);
      expect((await s.call('PUT', `${p}/templates/${id}`, { ...old, environment_id: f.environment.id }, admin)).status).toBe(204);
      expect((await groupsOf(id)).environment_ids).toEqual([f.environment.id, third]);
      expect((await s.call('PUT', `${p}/templates/${id}`, { ...old, environment_id: null }, admin)).status).toBe(204);
      expect(await groupsOf(id)).toMatchObject({ environment_ids: [], environment_id: null });
      // a body without either leaves the groups alone
      await s.call('PUT', `${p}/templates/${id}`, { ...old, environment_id: undefined, environment_ids: [third] }, admin);
      expect((await s.call('PUT', `${p}/templates/${id}`, { ...old, environment_id: undefined, description: 'x' }, admin)).status).toBe(204);
      expect((await groupsOf(id)).environment_ids).toEqual([third]);
    });

    it('a template from before the list shows its single group', async () => {
      expect(await groupsOf(f.template.id)).toMatchObject({ environment_id: f.environment.id, environment_ids: [f.environment.id] });
    });

    it('refuses another project\'s group, an unknown one and one listed twice with 400', async () => {
      const bad = async (environment_ids: unknown) => (await s.call('POST', `${p}/templates`, bash('Bad groups', { environment_ids }), admin)).body;
      expect(await bad([second, foreign])).toEqual({ error: `environment_ids: no environment ${foreign} in this project` });
      expect(await bad([99999])).toEqual({ error: 'environment_ids: no environment 99999 in this project' });
      expect(await bad([second, second])).toEqual({ error: `environment_ids: variable group ${second} is listed twice` });
      expect((await s.call('POST', `${p}/templates`, bash('Bad groups', { environment_ids: ['1'] }), admin)).status).toBe(400);
      expect((await s.call('GET', `${p}/templates`, undefined, admin)).body.map((t: any) => t.name)).not.toContain('Bad groups');
    });

    it('a group used in any position is in use: refs name the template and delete answers 400', async () => {
      const group = (await s.call('POST', `${p}/environment`, { name: 'Later only', project_id: f.project.id, json: '{}' }, admin)).body.id;
      const tpl = (await s.call('POST', `${p}/templates`, bash('Uses later', { environment_ids: [second, group] }), admin)).body;
      const refs = (await s.call('GET', `${p}/environment/${group}/refs`, undefined, admin)).body;
      expect(refs.templates.map((t: any) => t.id)).toEqual([tpl.id]);
      const del = await s.call('DELETE', `${p}/environment/${group}`, undefined, admin);
      expect(del.status).toBe(400);
      expect(del.body.inUse).toBe(true);
    });

    it('records the template\'s groups on a task; choosing at launch needs task_params.allow_override_environment', async () => {
      const fixed = (await s.call('POST', `${p}/templates`, bash('Fixed groups', { environment_ids: [second, third] }), admin)).body;
      const task = await s.call('POST', `${p}/tasks`, { template_id: fixed.id }, admin);
      expect(task.status).toBe(201);
      expect(task.body.environment_ids).toEqual([second, third]);
      expect((await s.call('GET', `${p}/tasks/${task.body.id}`, undefined, admin)).body.environment_ids).toEqual([second, third]);
      expect((await s.call('POST', `${p}/tasks`, { template_id: fixed.id, environment_ids: [third] }, admin)).body)
        .toEqual({ error: 'environment_ids: this template does not let a task choose its variable groups' });

      const open = (await s.call('POST', `${p}/templates`, bash('Open groups', { environment_ids: [second], task_params: { allow_override_environment: true } }), admin)).body;
      const chosen = await s.call('POST', `${p}/tasks`, { template_id: open.id, environment_ids: [third, second] }, admin);
      expect(chosen.status).toBe(201);
      expect(chosen.body.environment_ids).toEqual([third, second]);
      expect((await s.call('POST', `${p}/tasks`, { template_id: open.id, environment_ids: [foreign] }, admin)).body)
        .toEqual({ error: `environment_ids: no environment ${foreign} in this project` });
      // the template's own groups when the run names none
      expect((await s.call('POST', `${p}/tasks`, { template_id: open.id, environment_ids: null }, admin)).body.environment_ids).toEqual([second]);
    });

    it('a backup keeps the order and a restore brings it back', async () => {
      const tpl = (await s.call('POST', `${p}/templates`, bash('Backed up', { environment_ids: [third, second] }), admin)).body;
      const backup = (await s.call('GET', `${p}/backup`, undefined, admin)).body;
      const entry = backup.templates.find((t: any) => t.name === tpl.name);
      expect(entry).toMatchObject({ environment: 'Third', environments: ['Third', 'Second'] });
      const restored = await s.call('POST', '/api/projects/restore', { ...backup, meta: { ...backup.meta, name: 'Restored groups' } }, admin);
      expect(restored.status, restored.text).toBe(200);
      const templates = (await s.call('GET', `/api/project/${restored.body.id}/templates`, undefined, admin)).body;
      const groups = (await s.call('GET', `/api/project/${restored.body.id}/environment`, undefined, admin)).body;
      const nameOf = (id: number) => groups.find((g: any) => g.id === id)?.name;
      expect(templates.find((t: any) => t.name === tpl.name).environment_ids.map(nameOf)).toEqual(['Third', 'Second']);
    });
  });

  describe(`template names unique per project; start a task by template_name (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let f: FixtureProject;
    let p: string;
    const bash = (name: string) => ({ name, app: 'bash', playbook: 'run.sh', repository_id: f.repository.id });

    beforeAll(async () => {
      ({ s, admin, f } = await startWithFixtureProject(dialect));
      p = `/api/project/${f.project.id}`;
    });
    afterAll(async () => { await s.close(); });

    it('creating or renaming to a name the project already has answers 400 naming the existing template', async () => {
      const first = (await s.call('POST', `${p}/templates`, bash('Deploy site'), admin)).body;
      const dup = await s.call('POST', `${p}/templates`, bash('Deploy site'), admin);
      expect(dup.status).toBe(400);
      expect(dup.body).toEqual({ error: `name: template ${first.id} "Deploy site" already has this name in this project` });
      const other = (await s.call('POST', `${p}/templates`, bash('Other'), admin)).body;
      const rename = await s.call('PUT', `${p}/templates/${other.id}`, { ...other, name: ' Deploy site ' }, admin);
      expect(rename.body).toEqual({ error: `name: template ${first.id} "Deploy site" already has this name in this project` });
      // saving a template under its own name, and the same name in another project, are fine
      expect((await s.call('PUT', `${p}/templates/${first.id}`, { ...first, description: 'again' }, admin)).status).toBe(204);
      const elsewhere = await insertProjectWithTemplate(s.deps.db, { ownerId: 1, templateName: 'Elsewhere' });
      expect((await s.call('POST', `/api/project/${elsewhere.project.id}/templates`, { ...bash('Deploy site'), repository_id: elsewhere.repository.id }, admin)).status).toBe(201);
    });

    it('duplicates from before the rule stay usable; template_name then asks for the id', async () => {
      const a = await insertTemplate(s.deps.db, f.project.id, { name: 'Legacy twin', repository_id: f.repository.id });
      const b = await insertTemplate(s.deps.db, f.project.id, { name: 'Legacy twin', repository_id: f.repository.id });
      const current = (await s.call('GET', `${p}/templates/${b.id}`, undefined, admin)).body;
      expect((await s.call('PUT', `${p}/templates/${b.id}`, { ...current, description: 'still editable' }, admin)).status).toBe(204);
      expect((await s.call('POST', `${p}/tasks`, { template_name: 'Legacy twin' }, admin)).body)
        .toEqual({ error: `template_name: several templates are named "Legacy twin" (IDs ${a.id}, ${b.id}); use template_id` });
      expect((await s.call('POST', `${p}/tasks`, { template_id: b.id, template_name: 'Legacy twin' }, admin)).body.template_id).toBe(b.id);
      expect((await s.call('POST', `${p}/templates`, bash('Legacy twin'), admin)).status).toBe(400);
    });

    it('takes the request of Semaphore 2.20\'s API document unchanged', async () => {
      const tpl = (await s.call('POST', `${p}/templates`, bash('Build website'), admin)).body;
      const res = await s.call('POST', `${p}/tasks`, {
        template_name: 'Build website', debug: false, dry_run: false, diff: false, playbook: '', environment: '{}', limit: '', git_branch: '', message: 'from the docs', arguments: '[]',
      }, admin);
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ template_id: tpl.id, message: 'from the docs' });
      expect((await s.call('POST', `${p}/tasks`, { template_name: 'No such' }, admin)).body).toEqual({ error: 'template_name: no template "No such" in this project' });
    });
  });
}
