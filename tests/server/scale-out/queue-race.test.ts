import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { isPostgresReachable } from '../../support/dialects.ts';
import { taskLog, waitForTask } from '../../support/engine.ts';
import { sampleActive } from '../../support/gated-script.ts';
import { startServerCluster, type ClusterNode, type ServerCluster } from '../../support/server-cluster.ts';
import { registerRunner, runnerEnv, startRunner, stopRunner, until, type RunnerChild } from '../../support/runner-process.ts';

const REGISTRATION = 'race-registration-51c2';
const STARTS = 200;

/** What each template of the race asks for, and how many of every 20 starts are its. */
const SPECS = [
  { name: 'free', limit: null, locks: [], parallel: true, share: 8 },
  { name: 'report', limit: null, locks: ['db'], parallel: true, share: 5 },
  { name: 'web', limit: 2, locks: ['prod'], share: 3 },
  { name: 'migrate', limit: 1, locks: ['prod', 'db'], share: 2 },
  { name: 'preview', limit: 1, policy: 'cancel_previous', locks: ['staging'], share: 2 },
] as const;
const CAPACITY = { prod: 1, db: 2, staging: 1 } as const;
/** What may run at once, per template and per lock, as the rules say. */
const ALLOWED: [string, number][] = [
  ...SPECS.filter((s) => s.limit !== null).map((s): [string, number] => [`template ${s.name}`, s.limit!]),
  ...Object.entries(CAPACITY),
];

/**
 * Issue 48's race with every moving part real: two `signalbox server` processes on one
 * PostgreSQL database, one remote runner process talking to each, and 200 starts posted at
 * once to both servers over templates with limits and shared locks. What ran at once is read
 * twice, from the database while it runs and from the scripts' own start and end lines.
 */
describe.runIf(await isPostgresReachable())('200 starts racing over two servers and two runners', () => {
  let cluster: ServerCluster;
  let projectId: number;
  let repositoryId: number;
  let events: string;
  let gate: string;
  const runners: RunnerChild[] = [];
  const ids = new Map<string, number>();

  const call = async (node: ClusterNode, method: string, path: string, body?: unknown) => {
    const res = await node.api(method, `/api/project/${projectId}${path}`, body);
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };

  beforeAll(async () => {
    cluster = await startServerCluster(2, async (db, tmp) => {
      const scripts = join(tmp, 'scripts');
      mkdirSync(scripts);
      events = join(tmp, 'events.txt');
      gate = join(tmp, 'race.open');
      // every run waits for the gate, so all starts are queued before anything ends
      for (const spec of SPECS) {
        writeFileSync(join(scripts, `${spec.name}.sh`), [
          `echo "start ${spec.name} $$ $(date +%s%N)" >> "${events}"`,
          `while [ ! -e "${gate}" ]; do sleep 0.05; done`,
          'sleep 0.05',
          `echo "end ${spec.name} $$ $(date +%s%N)" >> "${events}"`,
        ].join('\n'));
      }
      const fx = await insertProjectWithTemplate(db, { ownerId: 1, gitUrl: scripts, playbook: 'free.sh' });
      projectId = fx.project.id;
      repositoryId = fx.repository.id;
    }, { env: { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION, SEMAPHORE_USE_REMOTE_RUNNER: 'true', SIGNALBOX_RUNNER_POLL_HOLD_MS: '2000' } });
    const [a] = cluster.nodes as [ClusterNode];
    for (const [name, capacity] of Object.entries(CAPACITY)) await call(a, 'POST', '/locks', { name, capacity });
    for (const spec of SPECS) {
      const created = await call(a, 'POST', '/templates', {
        name: spec.name, app: 'bash', playbook: `${spec.name}.sh`, repository_id: repositoryId, locks: spec.locks,
        concurrency_limit: spec.limit, concurrency_policy: 'policy' in spec ? spec.policy : 'queue', allow_parallel_tasks: 'parallel' in spec,
      });
      ids.set(spec.name, created.id);
    }
    await Promise.all(cluster.nodes.map(async (node, i) => {
      const env = runnerEnv(`http://127.0.0.1:${node.port}`, join(cluster.tmp, `runner-${i}`), { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION });
      await registerRunner(env, ['--name', `race-${i}`, '--max-parallel-tasks', '4']);
      const runner = startRunner(env);
      runners.push(runner);
      await until(`runner ${i} polling`, async () => runner.output().includes('runner started'), 60_000);
    }));
  }, 240_000);

  afterAll(async () => {
    for (const runner of runners) await stopRunner(runner);
    await cluster?.close();
  }, 60_000);

  it('never runs more than a limit or a lock allows, serves each template first come first served, and the newest preview alone ends', async () => {
    const templateOf = new Map([...ids].map(([name, id]) => [id, SPECS.find((s) => s.name === name)!]));
    const sampler = sampleActive(cluster.db, (t) => {
      const spec = templateOf.get(t.template_id);
      return spec ? [`template ${spec.name}`, ...spec.locks] : [];
    });
    const done = [];
    let most = new Map<string, number>();
    try {
      const cycle = SPECS.flatMap((spec) => Array<string>(spec.share).fill(spec.name));
      const order = Array.from({ length: STARTS }, (_, i) => cycle[i % cycle.length]!);
      const started: number[] = await Promise.all(order.map(async (name, i) => {
        const task = await call(cluster.nodes[i % 2]!, 'POST', '/tasks', { template_id: ids.get(name) });
        return task.id as number;
      }));
      writeFileSync(gate, '');
      for (const id of started) done.push(await waitForTask(cluster.db, id, undefined, 600_000));
    } finally {
      // stopped on a failure too: it must not read a database that is closing
      most = await sampler.stop();
    }

    expect(sampler.samples()).toBeGreaterThan(0);
    const fromProcesses = mostAtOnce(readFileSync(events, 'utf8'));
    for (const [key, limit] of ALLOWED) {
      expect(most.get(key) ?? 0, `${key} in the database`).toBeLessThanOrEqual(limit);
      if (key !== 'template preview' && key !== 'staging') expect(fromProcesses.get(key) ?? 0, `${key} in the processes`).toBeLessThanOrEqual(limit);
    }
    // the free template really ran side by side: the limits above were not met by running one at a time
    expect(fromProcesses.get('template free')).toBeGreaterThan(1);
    for (const spec of SPECS) {
      const mine = done.filter((t) => t.template_id === ids.get(spec.name)).sort((x, y) => x.id - y.id);
      const logs = async () => (await Promise.all(mine.map(async (t) => `#${t.id} ${t.status}: ${(await taskLog(cluster.db, t.id)).join(' | ')}`))).join('\n');
      if (spec.name === 'preview') {
        expect(mine.map((t) => t.status), await logs()).toEqual([...mine.slice(0, -1).map(() => 'stopped'), 'success']);
        continue;
      }
      // none starved: every start ran to its end
      expect(mine.map((t) => t.status), await logs()).toEqual(mine.map(() => 'success'));
      if (spec.name === 'web' || spec.name === 'migrate') {
        // one at a time (the prod lock): they ran in the order they arrived
        const starts = mine.map((t) => t.start!);
        expect([...starts].sort(), `${spec.name} started in arrival order`).toEqual(starts);
      }
    }
  }, 900_000);
});

/** The most runs at once per template and per lock, swept over the scripts' start and end lines. */
function mostAtOnce(text: string): Map<string, number> {
  const keysOf = (name: string) => {
    const spec = SPECS.find((s) => s.name === name)!;
    return [`template ${name}`, ...spec.locks];
  };
  const moments = text.trim().split('\n').map((line) => {
    const [edge, name, , at] = line.split(' ');
    return { up: edge === 'start', keys: keysOf(name!), at: BigInt(at!) };
  });
  // at one instant an end comes before a start: a run that ended let the next one in
  moments.sort((x, y) => (x.at === y.at ? Number(x.up) - Number(y.up) : x.at < y.at ? -1 : 1));
  const now = new Map<string, number>();
  const most = new Map<string, number>();
  for (const m of moments) {
    for (const key of m.keys) {
      const n = (now.get(key) ?? 0) + (m.up ? 1 : -1);
      now.set(key, n);
      most.set(key, Math.max(most.get(key) ?? 0, n));
    }
  }
  return most;
}
