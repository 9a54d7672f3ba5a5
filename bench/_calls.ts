import { performance } from 'node:perf_hooks';
import { startConsoleServer } from '../tests/console/support/console-server.ts';
import { adminApi, insertScriptProject } from '../tests/console/support/real-tasks.ts';
import { createApi } from '../src/server/app.ts';
const server = await startConsoleServer();
const api = await adminApi(server);
const fx = await insertScriptProject(server, { 'hello.sh': 'echo hi\n' }, 'hello.sh');
const rows = Array.from({ length: 10000 }, () => ({ project_id: fx.project.id, template_id: fx.template.id, status: 'success', user_id: fx.adminId, playbook: '', environment: '{}', message: 'm', commit_message: 'c', params: '{}', created: new Date().toISOString(), start: new Date().toISOString(), end: new Date().toISOString() }));
for (let i = 0; i < rows.length; i += 500) await server.deps.db.insertInto('task').values(rows.slice(i, i + 500)).execute();
const app = createApi(server.deps);
const p = fx.project.id;
for (const path of ['/api/user', '/api/projects', '/api/info', `/api/project/${p}`, `/api/project/${p}/role`, `/api/project/${p}/tasks?offset=0&limit=20`]) {
  for (let i = 0; i < 50; i++) await (await app.request(path, { headers: { cookie: api.cookie } })).text();
  const t0 = performance.now();
  for (let i = 0; i < 300; i++) await (await app.request(path, { headers: { cookie: api.cookie } })).text();
  console.log(path.padEnd(45), ((performance.now() - t0) / 300).toFixed(2), 'ms in-process');
}
for (const path of ['/auth/login', '/404', `/project/${p}/activity`, `/project/${p}/history`, `/project/${p}/history?kiosk=1`, '/api/info', `/api/project/${p}/tasks?offset=0&limit=20`]) {
  const t0 = performance.now();
  for (let i = 0; i < 200; i++) await (await fetch(server.url + path, { headers: { cookie: api.cookie } })).text();
  console.log(path.padEnd(45), ((performance.now() - t0) / 200).toFixed(2), 'ms http');
}
await server.close();
