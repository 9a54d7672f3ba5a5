import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../support/engine.ts';
import { insertEnvironmentSecret, insertProjectWithTemplate } from '../support/fixtures.ts';
import { commitFiles, createGitRepo } from '../support/git-repo.ts';
import { startGitDaemon } from '../support/git-daemon.ts';
import { canCreateOsUsers } from '../support/os-user.ts';
import { freeUidRange, removePoolAccounts } from '../support/uid-pool.ts';
import { TASK_MARKER_VAR } from '../../src/server/engine/queue/task-processes.ts';

/**
 * Leaves its secrets where a task keeps them (environment, command line, TMPDIR, HOME, work
 * folder), says where, waits to be told the other task's processes and files, tries to read
 * each, and prints one line per attempt: "refused …" or "LEAK …". Then waits to be let go.
 */
const PROBE = `id=$SIGNALBOX_TASK_ID
T="\${TMPDIR:-/tmp}"
echo "file-$API_TOKEN" > "$T/secret-$id.txt"
echo "file-$API_TOKEN" > "$HOME/secret-$id.txt"
echo "file-$API_TOKEN" > "$PWD/work-$id.txt"
echo "ready uid=$(id -u) tmp=$T home=$HOME work=$PWD"
i=0; while [ ! -e "$T/targets-$id" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done
. "$T/targets-$id"
# empty targets would match every process: say so instead of reporting leaks
[ -n "$OTHER_SECRET" ] && [ -n "$OTHER_CMD" ] || { echo "no targets in $T/targets-$id"; exit 3; }
for pid in $PIDS; do
  if tr '\\0' '\\n' < /proc/$pid/environ 2>/dev/null | grep -qF -- "$OTHER_SECRET"; then echo "LEAK environ $pid"; else echo "refused environ $pid"; fi
  if tr '\\0' ' ' < /proc/$pid/cmdline 2>/dev/null | grep -qF -- "$OTHER_CMD"; then echo "LEAK cmdline $pid"; else echo "refused cmdline $pid"; fi
done
for f in $OTHER_FILES; do if cat -- "$f" 2>/dev/null | grep -qF -- "$OTHER_SECRET"; then echo "LEAK file $f"; else echo "refused file $f"; fi; done
for d in $OTHER_DIRS; do if ls -- "$d" >/dev/null 2>&1; then echo "LEAK dir $d"; else echo "refused dir $d"; fi; done
for p in /proc/[0-9]*; do
  tr '\\0' '\\n' < $p/environ 2>/dev/null | grep -qF -- "$OTHER_SECRET" && echo "LEAK seen environ $p"
  tr '\\0' ' ' < $p/cmdline 2>/dev/null | grep -qF -- "$OTHER_CMD" && echo "LEAK seen cmdline $p"
done
echo probed
i=0; while [ ! -e "$T/finish-$id" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done
`;

interface Side {
  name: string;
  projectId: number;
  templateId: number;
  secret: string;
  cmdMark: string;
  taskId: number;
  ready: Record<string, string>;
}

/** The host's processes of a task (by the marker every task process carries), read as root. */
function processesOf(taskId: number): number[] {
  const marker = `${TASK_MARKER_VAR}=${taskId}`;
  return readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/environ`, 'utf8').split('\0').includes(marker);
    } catch {
      return false;
    }
  }).map(Number);
}

function readable(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

describe.runIf(canCreateOsUsers())('two running tasks of different projects cannot read each other (SEMAPHORE_PROCESS_UID_POOL)', () => {
  let e: EngineServer;
  let range: { first: number; last: number };
  let daemon: Awaited<ReturnType<typeof startGitDaemon>>;
  const sides: Side[] = [];

  beforeAll(async () => {
    range = freeUidRange(4);
    e = await startEngineServer('sqlite', { SEMAPHORE_PROCESS_UID_POOL: `${range.first}-${range.last}` });
    // task users pass through the test folder (as through /tmp) to reach tmp_path
    chmodSync(e.s.tmp, 0o711);
    const served = join(e.s.tmp, 'served');
    for (const name of ['alpha', 'beta']) createGitRepo(join(served, `${name}.git`), { 'probe.sh': PROBE });
    daemon = await startGitDaemon(served);
    for (const name of ['alpha', 'beta']) {
      const { project, template, environment } = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `${daemon.url}/${name}.git`, playbook: 'probe.sh' });
      const secret = `secret-${name}-${randomBytes(8).toString('hex')}`;
      const cmdMark = `cmd-${name}-${randomBytes(8).toString('hex')}`;
      await insertEnvironmentSecret(e.s.deps.db, e.s.deps.secrets, environment.id, project.id, 'env', 'API_TOKEN', secret);
      // a bash task gets its extra variables as name=value words: this one shows on its command line
      await e.s.deps.db.updateTable('environment').set({ json: JSON.stringify({ cmdmark: cmdMark }) }).where('id', '=', environment.id).execute();
      sides.push({ name, projectId: project.id, templateId: template.id, secret, cmdMark, taskId: 0, ready: {} });
    }
  }, 60_000);
  afterAll(async () => {
    daemon?.stop();
    await e?.close();
    if (range) removePoolAccounts(range);
  });

  const waitForLine = async (taskId: number, pattern: RegExp) => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const line = (await taskLog(e.s.deps.db, taskId)).find((l) => pattern.test(l));
      if (line) return line;
      if (Date.now() > deadline) throw new Error(`task ${taskId} never printed ${pattern}:\n${(await taskLog(e.s.deps.db, taskId)).join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('refuses every attempt to read the other\'s /proc/<pid>/environ, command line, temporary files, home and work folder', async () => {
    for (const side of sides) {
      const res = await e.s.call('POST', `/api/project/${side.projectId}/tasks`, { template_id: side.templateId }, e.admin);
      expect(res.status, res.text).toBe(201);
      side.taskId = res.body.id;
    }
    for (const side of sides) {
      const line = await waitForLine(side.taskId, /^ready /);
      side.ready = Object.fromEntries(line.slice('ready '.length).split(' ').map((kv) => kv.split('=') as [string, string]));
    }
    const [a, b] = sides as [Side, Side];
    for (const [self, other] of [[a, b], [b, a]] as const) {
      const pids = processesOf(other.taskId);
      const files = [`${other.ready.tmp}/secret-${other.taskId}.txt`, `${other.ready.home}/secret-${other.taskId}.txt`, `${other.ready.work}/work-${other.taskId}.txt`];
      const dirs = [other.ready.tmp, other.ready.home, other.ready.work, dirname(other.ready.tmp!)];
      // the targets are right: root reads the secret in the other's environment, its mark in a command line, its files
      expect(pids.some((pid) => readable(`/proc/${pid}/environ`).includes(other.secret))).toBe(true);
      expect(pids.some((pid) => readable(`/proc/${pid}/cmdline`).includes(other.cmdMark))).toBe(true);
      for (const file of files) expect(readable(file)).toContain(other.secret);
      const targets = [`PIDS="${pids.join(' ')}"`, `OTHER_SECRET='${other.secret}'`, `OTHER_CMD='${other.cmdMark}'`, `OTHER_FILES="${files.join(' ')}"`, `OTHER_DIRS="${dirs.join(' ')}"`];
      // written whole, then renamed into place: the probe starts reading as soon as the name exists,
      // and a file still being written would give it empty targets, which match every process
      const targetsFile = join(self.ready.tmp!, `targets-${self.taskId}`);
      writeFileSync(`${targetsFile}.part`, `${targets.join('\n')}\n`, { mode: 0o644 });
      renameSync(`${targetsFile}.part`, targetsFile);
      self.ready.attempts = String(pids.length * 2 + files.length + dirs.length);
    }
    for (const side of sides) await waitForLine(side.taskId, /^probed$/);
    for (const side of sides) writeFileSync(join(side.ready.tmp!, `finish-${side.taskId}`), '');
    for (const side of sides) {
      const done = await waitForTask(e.s.deps.db, side.taskId, undefined, 60_000);
      const log = await taskLog(e.s.deps.db, side.taskId);
      expect(done.status, log.join('\n')).toBe('success');
      expect(log.filter((l) => l.startsWith('LEAK')), side.name).toEqual([]);
      expect(log.filter((l) => l.startsWith('refused ')).length, log.join('\n')).toBe(Number(side.ready.attempts));
    }
    // each had a uid of its own from the pool
    expect(Number(a.ready.uid)).toBeGreaterThanOrEqual(range.first);
    expect(Number(b.ready.uid)).toBeLessThanOrEqual(range.last);
    expect(a.ready.uid).not.toBe(b.ready.uid);
    // the run's home and temporary folders went with it
    for (const side of sides) expect([side.ready.home, existsSync(side.ready.home!)]).toEqual([side.ready.home, false]);
  }, 180_000);

  it('gives a uid back empty: a later task of another project with the same uid finds nothing the earlier one left in /tmp or its home', async () => {
    const [a, b] = sides as [Side, Side];
    const leave = `echo "left-$API_TOKEN" > /tmp/left-by-$SIGNALBOX_TASK_ID.txt; echo kept > "$HOME/kept.txt"; echo "uid=$(id -u)"`;
    const look = 'echo "uid=$(id -u)"; ls /tmp/left-by-* 2>/dev/null | wc -l | sed "s/^/left=/"; ls "$HOME" | wc -l | sed "s/^/home=/"';
    const runScript = async (side: Side, script: string) => {
      commitFiles(join(e.s.tmp, 'served', `${side.name}.git`), { 'step.sh': script }, 'Step');
      await e.s.deps.db.updateTable('template').set({ playbook: 'step.sh' }).where('id', '=', side.templateId).execute();
      const res = await e.s.call('POST', `/api/project/${side.projectId}/tasks`, { template_id: side.templateId }, e.admin);
      const done = await waitForTask(e.s.deps.db, res.body.id, undefined, 60_000);
      const log = await taskLog(e.s.deps.db, res.body.id);
      expect(done.status, log.join('\n')).toBe('success');
      return log;
    };
    const first = await runScript(a, leave);
    const second = await runScript(b, look);
    // the pool hands out its lowest free uid: both ran as the same one, one after the other
    expect(second.find((l) => l.startsWith('uid='))).toBe(first.find((l) => l.startsWith('uid=')));
    expect(second).toContain('left=0');
    expect(second).toContain('home=0');
  }, 120_000);
});
