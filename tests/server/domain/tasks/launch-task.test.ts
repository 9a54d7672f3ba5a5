import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../../support/harness.ts';
import { insertAdminProject, listTasks } from '../../../support/trigger-fixtures.ts';
import { insertTemplate } from '../../../support/fixtures.ts';
import { badRequest, ApiError } from '../../../../src/server/http/errors.ts';
import { launchTask, LaunchRefusal, type LaunchRule, type Starter } from '../../../../src/server/domain/tasks/launch/launch-task.ts';
import { LAUNCH_RULES } from '../../../../src/server/domain/tasks/launch/launch-rules.ts';

/**
 * The launch function's own contract, for the rules still to come (issue 48's limits, locks and
 * rate limits): a path's rules run after every common one, never instead; a rule's `admit` runs
 * inside the queuing transaction and a refusal there queues nothing; a refusal names its rule.
 */
for (const dialect of DIALECTS) {
  describe(`the launch function (${dialect})`, () => {
    let s: TestServer;
    let fixture: Awaited<ReturnType<typeof insertAdminProject>>;
    let starter: Starter;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      fixture = await insertAdminProject(s);
      const admin = await s.deps.db.selectFrom('user').selectAll().where('id', '=', fixture.adminId).executeTakeFirstOrThrow();
      starter = { path: 'api', user: admin, permissions: 15, valuesFrom: 'caller' };
    });
    afterAll(async () => { await s.close(); });

    it("asks a path's own rules after every common one, and a common refusal comes first", async () => {
      const asked: string[] = [];
      const own: LaunchRule = { name: 'own rule', check: () => { asked.push('own'); throw badRequest('refused by the path'); } };
      const disabled = await insertTemplate(s.deps.db, fixture.project.id, { name: 'Off', disabled: 1 });
      const first = await launchTask(s.deps, { ...starter, rules: [own] }, { projectId: fixture.project.id, input: { template_id: disabled.id } }).catch((e) => e);
      expect(first).toBeInstanceOf(LaunchRefusal);
      expect([first.rule, first.message, asked]).toEqual(['template enabled', 'Template "Off" is disabled', []]);

      const enabled = await insertTemplate(s.deps.db, fixture.project.id, { name: 'On' });
      const second = await launchTask(s.deps, { ...starter, rules: [own] }, { projectId: fixture.project.id, input: { template_id: enabled.id } }).catch((e) => e);
      expect([second.rule, second.message, second.status, asked]).toEqual(['own rule', 'refused by the path', 400, ['own']]);
      expect(await listTasks(s.deps.db, fixture.project.id)).toEqual([]);
    });

    it('runs admission steps inside the queuing transaction: one that refuses queues nothing, one that passes sees the queue', async () => {
      const template = await insertTemplate(s.deps.db, fixture.project.id, { name: 'Admitted' });
      const input = { template_id: template.id };
      // a per-template limit of one waiting task, as issue 48's rules will read the queue
      const onlyOne: LaunchRule = {
        name: 'one at a time',
        async admit(tx, launch) {
          const queued = await tx.selectFrom('task').select('id').where('template_id', '=', launch.template.id).where('status', '=', 'waiting').executeTakeFirst();
          if (queued) throw new ApiError('conflict', `task ${queued.id} of this template is queued`);
        },
      };
      const { task } = await launchTask(s.deps, { ...starter, rules: [onlyOne] }, { projectId: fixture.project.id, input });
      const refused = await launchTask(s.deps, { ...starter, rules: [onlyOne] }, { projectId: fixture.project.id, input }).catch((e) => e);
      expect([refused.rule, refused.status, refused.message]).toEqual(['one at a time', 409, `task ${task.id} of this template is queued`]);
      expect((await listTasks(s.deps.db, fixture.project.id)).filter((t) => t.template_id === template.id).map((t) => t.id)).toEqual([task.id]);
      // a template disabled between the checks and the insert is not started after all
      const late: LaunchRule = { name: 'disables meanwhile', check: async () => { await s.deps.db.updateTable('template').set({ disabled: 1 }).where('id', '=', template.id).execute(); } };
      await s.deps.db.updateTable('task').set({ status: 'stopped' }).where('id', '=', task.id).execute();
      const raced = await launchTask(s.deps, { ...starter, rules: [late] }, { projectId: fixture.project.id, input }).catch((e) => e);
      expect([raced.rule, raced.message]).toEqual(['template enabled', 'Template "Admitted" is disabled']);
      expect(LAUNCH_RULES.find((r) => r.name === 'template enabled')?.admit).toBeTypeOf('function');
    });
  });
}
