import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { eventually, startHttpReceiver } from '../../support/http-receiver.ts';
import { startAlerts } from '../../../src/server/alerts/alerts.ts';

for (const dialect of DIALECTS) {
  describe(`workflow approval alerts (${dialect})`, () => {
    let e: EngineServer;
    let chat: Awaited<ReturnType<typeof startHttpReceiver>>;
    let alerts: ReturnType<typeof startAlerts>;
    let f: Awaited<ReturnType<typeof insertProjectWithTemplate>>;

    beforeAll(async () => {
      chat = await startHttpReceiver(() => 200);
      e = await startEngineServer(dialect, { SEMAPHORE_WEB_ROOT: 'https://signalbox.example.test', SEMAPHORE_WEBHOOK_ALERT: 'true', SEMAPHORE_WEBHOOK_URL: `${chat.url}/hook` });
      alerts = startAlerts(e.s.deps, { log: () => {} });
      f = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1 });
      await e.s.deps.db.updateTable('project').set({ alert: 1 }).where('id', '=', f.project.id).execute();
    });
    afterAll(async () => {
      alerts?.stop();
      await e?.close();
      await chat?.close();
    });

    it('announces a waiting approval once, on the project channels, with a link to the run page', async () => {
      const p = `/api/project/${f.project.id}/workflows`;
      const wf = (await e.s.call('POST', p, { name: 'Gate <b>', nodes: [{ id: 1, kind: 'approval', name: 'go?' }] }, e.admin)).body;
      const run = (await e.s.call('POST', `${p}/${wf.id}/run`, {}, e.admin)).body;
      const hooks = () => chat.received.filter((r) => r.path === '/hook' && r.body.status === 'waiting_approval');
      await eventually(() => hooks().length === 1, 'the approval alert');
      expect(hooks()[0]!.body).toMatchObject({
        status: 'waiting_approval', url: `https://signalbox.example.test/project/${f.project.id}/workflows/${wf.id}/runs/${run.id}`,
        template: { name: 'Workflow Gate <b>' }, project: { id: f.project.id },
      });
      await alerts.settled();
      expect(hooks()).toHaveLength(1);
    });
  });
}
