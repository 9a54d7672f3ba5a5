import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld, type World } from '../../support/world.ts';
import { insertProjectResources, type ResourceIds } from '../../support/resource-rows.ts';
import { createHostServer, type HostServer } from '../../../src/server/host/http-server.ts';

// A template with grants: its task updates and log lines reach only sockets of members who may
// see it (and owners, admins); a custom role without ViewTemplates hears no task at all.

interface Listener { socket: WebSocket; seen: Array<{ type: string; task_id: number }> }

function listen(port: number, headers: Record<string, string>): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, { headers });
    const seen: Listener['seen'] = [];
    socket.on('message', (data) => seen.push(JSON.parse(data.toString())));
    socket.once('open', () => resolve({ socket, seen }));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

const MARKER_TASK = 999_999;

for (const dialect of DIALECTS) {
  describe(`template grants on /api/ws (${dialect})`, () => {
    let s: TestServer;
    let host: HostServer;
    let port: number;

    beforeAll(async () => {
      s = await startTestServer(dialect);
      host = await createHostServer(s.deps);
      await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
      port = (host.server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await host.close();
      await s.close();
    });

    /** Publishes the template's task update and log line, then an update of the spare template; returns once every listener heard the last. */
    async function publish(w: World, ids: ResourceIds, listeners: Listener[]): Promise<void> {
      const at = { project_id: w.projectId, start: null, end: null, version: null, status: 'running' };
      s.deps.bus.publish({ type: 'update', ...at, task_id: ids.task, template_id: ids.template });
      s.deps.bus.publish({ type: 'log', project_id: w.projectId, task_id: ids.task, time: new Date().toISOString(), output: 'hidden line' });
      s.deps.bus.publish({ type: 'update', ...at, task_id: MARKER_TASK, template_id: ids.spareTemplate });
      for (const l of listeners) await expect.poll(() => l.seen.some((m) => m.task_id === MARKER_TASK)).toBe(true);
    }

    const heard = (l: Listener) => l.seen.splice(0).map((m) => `${m.type} ${m.task_id === MARKER_TASK ? 'spare' : 'granted'}`);

    it('a member the grants do not name hears nothing of the template; the granted and the owner hear all', async () => {
      const w = await buildWorld(s.deps.db);
      const ids = await insertProjectResources(s.deps.db, w.projectId);
      const grants = (list: unknown[]) => s.call('PUT', `/api/project/${w.projectId}/templates/${ids.template}/grants`, { grants: list }, w.auth.owner);
      expect((await grants([{ role: 'manager' }])).status).toBe(200);
      const [runner, manager, owner] = await Promise.all([w.auth.task_runner, w.auth.manager, w.auth.owner].map((auth) => listen(port, auth as Record<string, string>)));
      await publish(w, ids, [runner!, manager!, owner!]);
      expect(heard(runner!)).toEqual(['update spare']);
      expect(heard(manager!)).toEqual(['update granted', 'log granted', 'update spare']);
      expect(heard(owner!)).toEqual(['update granted', 'log granted', 'update spare']);
      await grants([{ user_id: w.users.task_runner.id }]);
      await publish(w, ids, [runner!, manager!]);
      expect(heard(runner!)).toEqual(['update granted', 'log granted', 'update spare']);
      expect(heard(manager!)).toEqual(['update spare']);
      for (const l of [runner!, manager!, owner!]) l.socket.close();
    });
  });
}
