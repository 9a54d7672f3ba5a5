/**
 * Execution environments: what running a task in a container costs. A quick bash task (`exit 0`)
 * is run `BENCH_CONTAINER_TASKS` (30) times on the host and as often in a container of the
 * test base image (Podman, network none), alternating, each timed from `POST /tasks` to its
 * end (the bus `update` with `success`). Printed: the median and p95 of each, and of the paired
 * difference — the container's start, its `exec` and its removal, per task. Needs Podman (and,
 * the first time on a machine, debootstrap to make the image); skipped with a line without it.
 * Alone: `bash scripts/with-node.sh node bench/containers.ts`.
 */
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { bootBenchApi, BENCH_PASSWORD, quickTaskProject } from './bench-api.ts';
import { startEngine } from '../src/server/engine/engine.ts';
import { isFinished } from '../src/server/domain/tasks/task-status.ts';
import { insertTemplate } from '../tests/support/fixtures.ts';
import { testImage, useTestContainersConf } from '../tests/support/container-images.ts';
import { execFileSync } from 'node:child_process';

export async function runContainerBench(): Promise<void> {
  const runs = Number(process.env.BENCH_CONTAINER_TASKS ?? 30);
  if (!podmanHere()) {
    console.log('container start per task: skipped (Podman is not installed: apt-get install podman runc debootstrap)');
    return;
  }
  useTestContainersConf();
  const image = await testImage('base');
  const { tmp, database, deps, api } = await bootBenchApi('container-bench', 'sqlite');
  const engine = await startEngine(deps);
  try {
    const fx = await quickTaskProject(deps, tmp);
    const contained = await insertTemplate(deps.db, fx.project.id, { name: 'In a container', playbook: 'quick.sh', repository_id: fx.repository.id, executor_image: image, executor_network: 'none' });
    const login = await api.request('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: 'admin', password: BENCH_PASSWORD }) });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;

    /** Milliseconds from the POST to the task's end, as the bus tells it. */
    const timeTask = async (templateId: number): Promise<number> => {
      let id = -1;
      let ended = 0;
      const early: { taskId: number; at: number }[] = [];
      let finish!: () => void;
      const done = new Promise<void>((resolve) => { finish = resolve; });
      const unsubscribe = deps.bus.subscribe((m) => {
        if (m.type !== 'update' || !isFinished(m.status)) return;
        if (id === -1) early.push({ taskId: m.task_id, at: performance.now() });
        else if (m.task_id === id) { ended = performance.now(); finish(); }
      });
      const posted = performance.now();
      const res = await api.request(`/api/project/${fx.project.id}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ template_id: templateId }) });
      id = ((await res.json()) as { id: number }).id;
      const seen = early.find((e) => e.taskId === id);
      if (seen) ended = seen.at;
      else await done;
      unsubscribe();
      const row = await deps.db.selectFrom('task').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      if (row.status !== 'success') throw new Error(`bench task ${id} ended ${row.status}`);
      return ended - posted;
    };

    await timeTask(fx.template.id);
    await timeTask(contained.id); // warm-up: image layers and the engine's own caches
    const host: number[] = [];
    const container: number[] = [];
    const extra: number[] = [];
    for (let i = 0; i < runs; i++) {
      const h = await timeTask(fx.template.id);
      const c = await timeTask(contained.id);
      host.push(h);
      container.push(c);
      extra.push(c - h);
    }
    const ms = (list: number[], q: number) => {
      const sorted = [...list].sort((a, b) => a - b);
      return `${Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!)} ms`;
    };
    console.log(`container start per task (podman, ${runs} quick tasks each, alternating): host task p50 ${ms(host, 0.5)}, p95 ${ms(host, 0.95)}; in a container p50 ${ms(container, 0.5)}, p95 ${ms(container, 0.95)}; the container's cost per task p50 ${ms(extra, 0.5)}, p95 ${ms(extra, 0.95)}`);
  } finally {
    await engine.stop();
    await deps.db.destroy();
    await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

function podmanHere(): boolean {
  try {
    execFileSync('podman', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runContainerBench();
