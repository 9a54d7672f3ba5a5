import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../src/server/db/database.ts';
import { ACTIVE_STATUSES } from '../../src/server/domain/tasks/task-status.ts';

/** A script that runs until the test opens its gate (a file beside it): no timing guesses. */
export function gatedScript(dir: string, name: string): { playbook: string; open: () => void } {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.sh`), `echo ${name} started\nwhile [ ! -e ${name}.open ]; do sleep 0.05; done\necho ${name} done\n`);
  return { playbook: `${name}.sh`, open: () => writeFileSync(join(dir, `${name}.open`), '') };
}

/**
 * Reads the active tasks from the database again and again until stopped, keeping the largest
 * number seen at once per key (`keyOf` picks what a task counts towards: its template, a lock).
 * @example const s = sampleActive(db, (t) => [String(t.template_id)]); ...; const most = await s.stop();
 */
export function sampleActive(db: Db, keyOf: (task: { id: number; template_id: number }) => string[]): { stop: () => Promise<Map<string, number>>; samples: () => number } {
  const most = new Map<string, number>();
  let running = true;
  let count = 0;
  const loop = (async () => {
    while (running) {
      const active = await db.selectFrom('task').select(['id', 'template_id']).where('status', 'in', [...ACTIVE_STATUSES]).execute();
      const now = new Map<string, number>();
      for (const task of active) for (const key of keyOf(task)) now.set(key, (now.get(key) ?? 0) + 1);
      for (const [key, n] of now) most.set(key, Math.max(most.get(key) ?? 0, n));
      count++;
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return { stop: async () => { running = false; await loop; return most; }, samples: () => count };
}
