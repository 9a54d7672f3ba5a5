import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { eventually, startHttpReceiver } from '../../support/http-receiver.ts';
import { startAlerts } from '../../../src/server/alerts/alerts.ts';

const HOOK_TOKEN = 'hook-token-3f9a1c';
const BOT_TOKEN = 'bot-token-77d0e2';

for (const dialect of DIALECTS) {
  describe(`project alert channels and template alert choice (${dialect})`, () => {
    let e: EngineServer;
    let chat: Awaited<ReturnType<typeof startHttpReceiver>>;
    let alerts: ReturnType<typeof startAlerts>;
    let f: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let base = '';
    const logged: string[] = [];
    const hooksAt = (path: string) => chat.received.filter((r) => r.path === path);
    const run = async (templateId: number) => {
      const res = await e.s.call('POST', `${base}/tasks`, { template_id: templateId }, e.admin);
      expect(res.status, res.text).toBe(201);
      return (await waitForTask(e.s.deps.db, res.body.id)).id;
    };
    const channel = async (body: Record<string, unknown>) => {
      const res = await e.s.call('POST', `${base}/alert-channels`, body, e.admin);
      expect(res.status, res.text).toBe(201);
      return res.body as { id: number };
    };

    beforeAll(async () => {
      chat = await startHttpReceiver((path) => (path.startsWith('/down') ? 500 : 200));
      // no server-wide channel: everything heard here comes from the project's own channels
      e = await startEngineServer(dialect, { SEMAPHORE_WEB_ROOT: 'https://signalbox.example.test', SEMAPHORE_TELEGRAM_API_URL: `${chat.url}/tg` });
      alerts = startAlerts(e.s.deps, { log: (l) => logged.push(l) });
      const repo = createGitRepo(join(e.s.tmp, 'repo'), { 'ok.sh': 'echo fine\n', 'fail.sh': 'exit 3\n' });
      f = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repo.path}`, playbook: 'ok.sh' });
      base = `/api/project/${f.project.id}`;
    });
    afterAll(async () => {
      alerts?.stop();
      await e?.close();
      await chat?.close();
    });

    it('stores a channel with its secret sealed, answers url_set/token_set instead, and keeps the secret when an update leaves it out', async () => {
      const created = await e.s.call('POST', `${base}/alert-channels`, { kind: 'webhook', name: 'Ops hook', url: `${chat.url}/ops?token=${HOOK_TOKEN}`, project_id: f.project.id }, e.admin);
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ kind: 'webhook', name: 'Ops hook', active: true, url_set: true, token_set: false, emails: [] });
      expect(created.text).not.toContain(HOOK_TOKEN);
      const row = await e.s.deps.db.selectFrom('alert_channel').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
      expect(row.secret).not.toContain(HOOK_TOKEN);
      expect(e.s.deps.secrets.open(row.secret!)).toBe(`${chat.url}/ops?token=${HOOK_TOKEN}`);

      const tg = await e.s.call('POST', `${base}/alert-channels`, { kind: 'telegram', name: 'Oncall chat', chat_id: '-1001', token: BOT_TOKEN }, e.admin);
      expect(tg.body).toMatchObject({ kind: 'telegram', chat_id: '-1001', token_set: true, url_set: false });
      expect((await e.s.call('PUT', `${base}/alert-channels/${tg.body.id}`, { kind: 'telegram', name: 'Oncall', chat_id: '-1002' }, e.admin)).status).toBe(204);
      const listed = await e.s.call('GET', `${base}/alert-channels`, undefined, e.admin);
      expect(listed.text).not.toContain(HOOK_TOKEN);
      expect(listed.text).not.toContain(BOT_TOKEN);
      expect(listed.body.find((c: { id: number }) => c.id === tg.body.id)).toMatchObject({ name: 'Oncall', chat_id: '-1002', token_set: true });
      const test = await e.s.call('POST', `${base}/alert-channels/${tg.body.id}/test`, undefined, e.admin);
      expect(test.body).toEqual({ ok: true });
      // the kept token is the one used
      expect(hooksAt(`/tg/bot${BOT_TOKEN}/sendMessage`).at(-1)!.body).toMatchObject({ chat_id: '-1002' });
      await e.s.call('DELETE', `${base}/alert-channels/${tg.body.id}`, undefined, e.admin);
      await e.s.call('DELETE', `${base}/alert-channels/${created.body.id}`, undefined, e.admin);
    });

    it('refuses bodies that cannot make a channel, naming the field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ kind: 'slack', name: 'x' }, 'url: required'],
        [{ kind: 'slack', name: 'x', url: 'ftp://example.test/hook' }, 'url: must be an http:// or https:// URL'],
        [{ kind: 'telegram', name: 'x', token: 't' }, 'chat_id: required'],
        [{ kind: 'telegram', name: 'x', chat_id: '1' }, 'token: required'],
        [{ kind: 'gotify', name: 'x', token: 't' }, 'server_url: required'],
        [{ kind: 'email', name: 'x' }, 'emails: required'],
        [{ kind: 'pager', name: 'x' }, 'kind: must be one of'],
        [{ kind: 'webhook', name: ' ', url: 'https://example.test' }, 'name: required'],
      ];
      for (const [body, error] of cases) {
        const res = await e.s.call('POST', `${base}/alert-channels`, body, e.admin);
        expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, expect.stringContaining(error)]);
      }
      expect(await e.s.deps.db.selectFrom('alert_channel').select('id').where('project_id', '=', f.project.id).execute()).toEqual([]);
    });

    it('a test through a channel says how the service answered, without its URL', async () => {
      const down = await channel({ kind: 'slack', name: 'Down', url: `${chat.url}/down?token=${HOOK_TOKEN}` });
      const res = await e.s.call('POST', `${base}/alert-channels/${down.id}/test`, undefined, e.admin);
      expect([res.status, res.body]).toEqual([200, { ok: false, error: 'HTTP 500' }]);
      const gone = await channel({ kind: 'webhook', name: 'Gone', url: `http://127.0.0.1:9/hook?token=${HOOK_TOKEN}` });
      const unreachable = await e.s.call('POST', `${base}/alert-channels/${gone.id}/test`, undefined, e.admin);
      expect(unreachable.body).toEqual({ ok: false, error: 'could not reach the service' });
      expect(res.text + unreachable.text).not.toContain(HOOK_TOKEN);
      for (const id of [down.id, gone.id]) await e.s.call('DELETE', `${base}/alert-channels/${id}`, undefined, e.admin);
    });

    it('alert_on × outcome: failure, success, always and never decide which tasks reach the channel', async () => {
      const hook = await channel({ kind: 'webhook', name: 'Matrix', url: `${chat.url}/matrix` });
      const choices = ['failure', 'success', 'always', 'never'] as const;
      const expected: Record<string, { success: boolean; error: boolean }> = {
        failure: { success: false, error: true }, success: { success: true, error: false }, always: { success: true, error: true }, never: { success: false, error: false },
      };
      const flags = { failure: [true, false], success: [false, true], always: [false, false], never: [true, true] };
      const tasks: { choice: string; outcome: 'success' | 'error'; id: number }[] = [];
      for (const choice of choices) {
        for (const outcome of ['success', 'error'] as const) {
          const t = await insertTemplate(e.s.deps.db, f.project.id, {
            name: `${choice} ${outcome}`, playbook: outcome === 'success' ? 'ok.sh' : 'fail.sh', repository_id: f.repository.id, inventory_id: f.inventory.id,
          });
          const put = await e.s.call('PUT', `${base}/templates/${t.id}`, { alert_on: choice }, e.admin);
          expect(put.status, put.text).toBe(204);
          const got = (await e.s.call('GET', `${base}/templates/${t.id}`, undefined, e.admin)).body;
          // the Semaphore flags say the same as the choice
          expect([got.alert_on, got.suppress_success_alerts, got.suppress_error_alerts]).toEqual([choice, ...flags[choice]]);
          tasks.push({ choice, outcome, id: await run(t.id) });
        }
      }
      // a last alerting task: once its alert arrived, every earlier one was decided
      const sentinel = await insertTemplate(e.s.deps.db, f.project.id, { name: 'Sentinel', playbook: 'fail.sh', repository_id: f.repository.id, inventory_id: f.inventory.id });
      const sentinelTask = await run(sentinel.id);
      await eventually(() => hooksAt('/matrix').some((r) => r.body.task.id === sentinelTask), 'the sentinel alert');
      await alerts.settled();
      const heard = new Set(hooksAt('/matrix').map((r) => r.body.task.id as number));
      const outcome = tasks.map((t) => `${t.choice}/${t.outcome}: ${heard.has(t.id)}`);
      expect(outcome).toEqual(tasks.map((t) => `${t.choice}/${t.outcome}: ${expected[t.choice]![t.outcome]}`));
      await e.s.call('DELETE', `${base}/alert-channels/${hook.id}`, undefined, e.admin);
    });

    it('alert_on fixed: failures alert, and of the successes only the first after a failure, marked fixed', async () => {
      const hook = await channel({ kind: 'webhook', name: 'Fixed', url: `${chat.url}/fixed` });
      const t = await insertTemplate(e.s.deps.db, f.project.id, { name: 'Flaky', playbook: 'ok.sh', repository_id: f.repository.id, inventory_id: f.inventory.id });
      expect((await e.s.call('PUT', `${base}/templates/${t.id}`, { alert_on: 'fixed' }, e.admin)).status).toBe(204);
      const got = (await e.s.call('GET', `${base}/templates/${t.id}`, undefined, e.admin)).body;
      expect([got.alert_on, got.suppress_success_alerts, got.suppress_error_alerts]).toEqual(['fixed', true, false]);
      // a Semaphore client sending the same flags keeps the choice
      expect((await e.s.call('PUT', `${base}/templates/${t.id}`, { suppress_success_alerts: true, suppress_error_alerts: false }, e.admin)).status).toBe(204);
      expect((await e.s.call('GET', `${base}/templates/${t.id}`, undefined, e.admin)).body.alert_on).toBe('fixed');
      const runs: { script: string; id: number }[] = [];
      for (const script of ['ok.sh', 'fail.sh', 'fail.sh', 'ok.sh', 'ok.sh']) {
        expect((await e.s.call('PUT', `${base}/templates/${t.id}`, { playbook: script }, e.admin)).status).toBe(204);
        runs.push({ script, id: await run(t.id) });
      }
      const sentinel = await insertTemplate(e.s.deps.db, f.project.id, { name: 'Fixed sentinel', playbook: 'fail.sh', repository_id: f.repository.id, inventory_id: f.inventory.id });
      const sentinelTask = await run(sentinel.id);
      await eventually(() => hooksAt('/fixed').some((r) => r.body.task.id === sentinelTask), 'the sentinel alert');
      await alerts.settled();
      const heard = new Map(hooksAt('/fixed').map((r) => [r.body.task.id as number, r.body as { status: string; fixed?: boolean }]));
      expect(runs.map((r) => heard.get(r.id) ?? null)).toEqual([
        null, expect.objectContaining({ status: 'error' }), expect.objectContaining({ status: 'error' }), expect.objectContaining({ status: 'success', fixed: true }), null,
      ]);
      expect(heard.get(runs[1]!.id)).not.toHaveProperty('fixed');

      // back to Semaphore's flags: successes alerting, failures muted (develop's suppress_error_alerts)
      expect((await e.s.call('PUT', `${base}/templates/${t.id}`, { suppress_success_alerts: false, suppress_error_alerts: true }, e.admin)).status).toBe(204);
      expect((await e.s.call('GET', `${base}/templates/${t.id}`, undefined, e.admin)).body.alert_on).toBe('success');
      expect((await e.s.call('PUT', `${base}/templates/${t.id}`, { playbook: 'fail.sh' }, e.admin)).status).toBe(204);
      const muted = await run(t.id);
      expect((await e.s.call('PUT', `${base}/templates/${t.id}`, { playbook: 'ok.sh' }, e.admin)).status).toBe(204);
      const loud = await run(t.id);
      await eventually(() => hooksAt('/fixed').some((r) => r.body.task.id === loud), 'the success alert');
      await alerts.settled();
      expect(hooksAt('/fixed').filter((r) => r.body.task.id === muted)).toEqual([]);
      expect(hooksAt('/fixed').find((r) => r.body.task.id === loud)!.body).not.toHaveProperty('fixed');
      await e.s.call('DELETE', `${base}/alert-channels/${hook.id}`, undefined, e.admin);
    });

    it("Semaphore's suppress flags set the choice; alert_channel_ids sends to the chosen channels only", async () => {
      const a = await channel({ kind: 'webhook', name: 'A', url: `${chat.url}/a` });
      const b = await channel({ kind: 'webhook', name: 'B', url: `${chat.url}/b` });
      const t = await insertTemplate(e.s.deps.db, f.project.id, { name: 'Chooser', playbook: 'fail.sh', repository_id: f.repository.id, inventory_id: f.inventory.id });
      expect((await e.s.call('PUT', `${base}/templates/${t.id}`, { suppress_success_alerts: true, suppress_error_alerts: false, alert_channel_ids: [b.id] }, e.admin)).status).toBe(204);
      const got = (await e.s.call('GET', `${base}/templates/${t.id}`, undefined, e.admin)).body;
      expect([got.alert_on, got.alert_channel_ids]).toEqual(['failure', [b.id]]);
      const other = await e.s.call('PUT', `${base}/templates/${t.id}`, { alert_channel_ids: [999999] }, e.admin);
      expect([other.status, other.body.error]).toEqual([400, 'alert_channel_ids: no alert channel 999999 in this project']);
      const bad = await e.s.call('PUT', `${base}/templates/${t.id}`, { alert_on: 'sometimes' }, e.admin);
      expect([bad.status, bad.body.error]).toEqual([400, 'alert_on: must be failure, fixed, success, always or never']);

      const taskId = await run(t.id);
      await eventually(() => hooksAt('/b').some((r) => r.body.task.id === taskId), 'the alert on B');
      await alerts.settled();
      expect(hooksAt('/a').filter((r) => r.body.task.id === taskId)).toEqual([]);
      // B is the template's only channel: deleting it is refused, A can go
      const refused = await e.s.call('DELETE', `${base}/alert-channels/${b.id}`, undefined, e.admin);
      expect([refused.status, refused.body.error]).toEqual([400, expect.stringContaining('"Chooser" sends its alerts only to this channel')]);
      expect((await e.s.call('DELETE', `${base}/alert-channels/${a.id}`, undefined, e.admin)).status).toBe(204);
      // a paused channel hears nothing
      expect((await e.s.call('PUT', `${base}/alert-channels/${b.id}`, { kind: 'webhook', name: 'B', active: false }, e.admin)).status).toBe(204);
      const paused = await run(t.id);
      const loud = await channel({ kind: 'webhook', name: 'Loud', url: `${chat.url}/loud` });
      expect((await e.s.call('PUT', `${base}/templates/${t.id}`, { alert_channel_ids: [b.id, loud.id] }, e.admin)).status).toBe(204);
      const after = await run(t.id);
      await eventually(() => hooksAt('/loud').some((r) => r.body.task.id === after), 'the alert on Loud');
      await alerts.settled();
      expect(hooksAt('/b').filter((r) => r.body.task.id === paused || r.body.task.id === after)).toEqual([]);
      expect(logged.join('\n')).not.toContain(HOOK_TOKEN);
    });
  });
}
