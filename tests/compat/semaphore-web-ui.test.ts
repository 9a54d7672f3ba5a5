import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { ADMIN, startCompatServer, type CompatServer } from './support/compat-server.ts';

/**
 * The requests Semaphore 2.16's own web UI sends for its everyday screens, header for header as
 * axios 1.x sends them from the browser (web/src in Semaphore's source): a JSON object body with
 * `Content-Type: application/json`, the form's `project_id` added to every save (`null` on the
 * global runners screen, ItemFormBase.save), no body and no Content-Type on DELETE and on
 * logout, `Accept: application/json, text/plain, *\/*`, and the browser's same-origin headers.
 * A delete first asks for the object's refs (ItemListPageBase.askDeleteItem).
 */
class WebUi {
  private cookie = '';
  private readonly server: CompatServer;
  constructor(server: CompatServer) {
    this.server = server;
  }

  /** One axios call; answers status and parsed body (null when empty). */
  async axios(method: 'get' | 'post' | 'put' | 'delete', url: string, data?: unknown): Promise<[number, any]> {
    const headers: Record<string, string> = {
      accept: 'application/json, text/plain, */*', origin: this.server.url, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors',
      ...(this.cookie ? { cookie: this.cookie } : {}),
      ...(data === undefined ? {} : { 'content-type': 'application/json' }),
    };
    const res = await fetch(this.server.url + url, { method: method.toUpperCase(), headers, body: data === undefined ? undefined : JSON.stringify(data) });
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('semaphore='));
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    const text = await res.text();
    return [res.status, text ? JSON.parse(text) : null];
  }

  /** ItemFormBase.save for a new item: POST with the form's fields and `project_id`. */
  create(url: string, projectId: number | null, item: Record<string, unknown>) {
    return this.axios('post', url, { ...item, project_id: projectId });
  }

  /** ItemListPageBase: the refs look-up, then the bodyless DELETE; both answers. */
  async remove(url: string, withRefs = true): Promise<[number, any][]> {
    const answers: [number, any][] = [];
    if (withRefs) answers.push(await this.axios('get', `${url}/refs`));
    answers.push(await this.axios('delete', url));
    return answers;
  }
}

const NO_REFS = { templates: [], repositories: [], inventories: [], schedules: [], integrations: [] };

for (const dialect of DIALECTS) {
  describe(`Semaphore's own web UI, replayed (${dialect})`, () => {
    let server: CompatServer;
    beforeAll(async () => { server = await startCompatServer(dialect); });
    afterAll(async () => { await server?.close(); });

    it('signs in, builds a project screen by screen, runs and stops tasks, deletes everything from its lists, and signs out', async () => {
      const ui = new WebUi(server);
      // Auth.vue, then App.vue's start-up
      expect(await ui.axios('get', '/api/auth/login')).toEqual([200, expect.objectContaining({ login_with_password: true })]);
      expect(await ui.axios('post', '/api/auth/login', { auth: ADMIN.login, password: ADMIN.password })).toEqual([204, null]);
      expect(await ui.axios('get', '/api/user')).toEqual([200, expect.objectContaining({ username: ADMIN.login, admin: true })]);
      expect(await ui.axios('get', '/api/info')).toEqual([200, expect.objectContaining({ version: expect.any(String) })]);

      // New project (ProjectForm: no project yet, so no project_id)
      const [projectStatus, project] = await ui.axios('post', '/api/projects', { name: 'UI project', alert: false, alert_chat: null, max_parallel_tasks: 0, demo: false });
      expect([projectStatus, project?.name]).toEqual([201, 'UI project']);
      const P = `/api/project/${project.id}`;
      expect(await ui.axios('get', `${P}/role`)).toEqual([200, expect.objectContaining({ role: 'owner' })]);

      // Key Store, Repositories, Inventory, Variable Groups: each form's save
      const [keyStatus, key] = await ui.create(`${P}/keys`, project.id, { name: 'None', type: 'none', override_secret: false, ssh: {}, login_password: {}, source_storage_id: null, source_storage_key: null });
      expect([keyStatus, key?.type]).toEqual([201, 'none']);
      const [repoStatus, repo] = await ui.create(`${P}/repositories`, project.id, { name: 'Scripts', git_url: server.repoUrl, git_branch: 'main', ssh_key_id: key.id });
      expect([repoStatus, repo?.git_url]).toEqual([201, server.repoUrl]);
      const [invStatus, inventory] = await ui.create(`${P}/inventory`, project.id, {
        name: 'Local', type: 'static', inventory: 'localhost ansible_connection=local', ssh_key_id: key.id, become_key_id: null, repository_id: null, runner_tag: null,
      });
      expect([invStatus, inventory?.name]).toEqual([201, 'Local']);
      const [envStatus, environment] = await ui.create(`${P}/environment`, project.id, {
        name: 'Vars', json: '{}', env: '{}', secrets: [], secret_storage_id: null, secret_storage_key_prefix: null,
      });
      expect([envStatus, environment?.name]).toEqual([201, 'Vars']);

      // Task Templates: a bash template, as TemplateForm sends it (unset choices are null)
      const templateForm = (name: string, playbook: string) => ({
        name, app: 'bash', playbook, type: '', description: null, repository_id: repo.id, inventory_id: inventory.id, environment_id: environment.id,
        view_id: null, build_template_id: null, start_version: null, git_branch: null, runner_tag: null, arguments: '[]', survey_vars: [], vaults: [],
        task_params: {}, autorun: false, suppress_success_alerts: false, allow_override_args_in_task: false, allow_parallel_tasks: true,
      });
      const [templateStatus, template] = await ui.create(`${P}/templates`, project.id, templateForm('Hello', 'hello.sh'));
      expect([templateStatus, template?.playbook]).toEqual([201, 'hello.sh']);
      const [slowStatus, slow] = await ui.create(`${P}/templates`, project.id, templateForm('Slow', 'slow.sh'));
      expect([slowStatus, slow?.playbook]).toEqual([201, 'slow.sh']);

      // Schedule and integration forms
      const [scheduleStatus, schedule] = await ui.create(`${P}/schedules`, project.id, { name: 'Nightly', cron_format: '0 3 * * *', template_id: template.id, active: false, task_params: {} });
      expect([scheduleStatus, schedule?.cron_format]).toEqual([201, '0 3 * * *']);
      const [integrationStatus, integration] = await ui.create(`${P}/integrations`, project.id, {
        name: 'Hook', template_id: template.id, auth_method: 'none', auth_header: null, auth_secret_id: null, task_params: {},
      });
      expect([integrationStatus, integration?.name]).toEqual([201, 'Hook']);

      // Run a task (TaskForm), watch it (TaskLogView), stop one from its log and one from Active tasks
      const [taskStatus, task] = await ui.create(`${P}/tasks`, project.id, { template_id: template.id, message: '', environment: '{}', params: {} });
      expect([taskStatus, task?.status]).toEqual([201, 'waiting']);
      await expect.poll(async () => (await ui.axios('get', `${P}/tasks/${task.id}`))[1].status, { timeout: 30_000 }).toBe('success');
      const [outputStatus, output] = await ui.axios('get', `${P}/tasks/${task.id}/output`);
      expect([outputStatus, output.some((line: { output: string }) => line.output.includes('hello from signalbox'))]).toEqual([200, true]);
      const [, running] = await ui.create(`${P}/tasks`, project.id, { template_id: slow.id, message: '', environment: '{}', params: {} });
      expect(await ui.axios('post', `${P}/tasks/${running.id}/stop`, { force: false })).toEqual([204, null]);
      const [, active] = await ui.create(`${P}/tasks`, project.id, { template_id: slow.id, message: '', environment: '{}', params: {} });
      expect(await ui.axios('get', '/api/tasks')).toEqual([200, expect.arrayContaining([expect.objectContaining({ task_id: active.id })])]);
      expect(await ui.axios('delete', `/api/tasks/${active.id}`)).toEqual([204, null]);
      for (const id of [running.id, active.id]) await expect.poll(async () => (await ui.axios('get', `${P}/tasks/${id}`))[1].status, { timeout: 30_000 }).toBe('stopped');

      // API tokens screen: POST with `data: {}`, then the bodyless DELETE
      const [tokenStatus, token] = await ui.axios('post', '/api/user/tokens', {});
      expect([tokenStatus, token?.expired]).toEqual([201, false]);
      const [, tokens] = await ui.axios('get', '/api/user/tokens');
      const tokenId = tokens.find((t: { id: string }) => token.id.startsWith(t.id)).id;
      expect(await ui.axios('delete', `/api/user/tokens/${tokenId}`)).toEqual([204, null]);

      // Runners screen (global): the form sends project_id null; switch it off, clear its cache, delete it
      const [runnerStatus, runner] = await ui.create('/api/runners', null, { name: 'Global runner', webhook: '', max_parallel_tasks: 0, active: true, tag: '' });
      expect([runnerStatus, runner?.name]).toEqual([201, 'Global runner']);
      expect(await ui.axios('post', `/api/runners/${runner.id}/active`, { active: false })).toEqual([204, null]);
      expect(await ui.axios('delete', `/api/runners/${runner.id}/cache`)).toEqual([204, null]);
      expect(await ui.axios('delete', `/api/runners/${runner.id}`)).toEqual([204, null]);

      // Users screen: create one, delete it (UserForm's bodyless DELETE)
      const [userStatus, user] = await ui.create('/api/users', null, { username: 'ui-user', name: 'UI User', email: 'ui-user@example.test', password: 'ui-user-pass-1', admin: false, alert: false, external: false });
      expect([userStatus, user?.username]).toEqual([201, 'ui-user']);
      expect(await ui.axios('delete', `/api/users/${user.id}`)).toEqual([204, null]);

      // Deleting from each list: refs first, then DELETE without a body
      expect(await ui.remove(`${P}/schedules/${schedule.id}`, false)).toEqual([[204, null]]);
      expect(await ui.remove(`${P}/integrations/${integration.id}`, false)).toEqual([[204, null]]);
      for (const id of [template.id, slow.id]) expect(await ui.remove(`${P}/templates/${id}`)).toEqual([[200, expect.objectContaining(NO_REFS)], [204, null]]);
      for (const path of [`environment/${environment.id}`, `inventory/${inventory.id}`, `repositories/${repo.id}`, `keys/${key.id}`]) {
        expect(await ui.remove(`${P}/${path}`)).toEqual([[200, expect.objectContaining(NO_REFS)], [204, null]]);
      }
      expect(await ui.axios('delete', P)).toEqual([204, null]);
      expect(await ui.axios('get', P)).toEqual([404, null]);

      // App.vue's sign-out: POST without data
      expect(await ui.axios('post', '/api/auth/logout')).toEqual([204, null]);
      expect(await ui.axios('get', '/api/user')).toEqual([401, null]);
    }, 120_000);
  });
}
