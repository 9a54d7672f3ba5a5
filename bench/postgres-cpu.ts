import { readdirSync, readFileSync } from 'node:fs';
import { cpuMs } from './scale-out.ts';

/**
 * CPU milliseconds spent by the PostgreSQL backends of one database while it is watched.
 * Backends are found by their process title (`postgres: … <user> <database> <host> …`);
 * a backend may exit (pool connections are closed when idle), so the processes are sampled
 * every `everyMs` and each one's last reading counts. Background processes (WAL writer,
 * checkpointer…) serve every database on the server and are summed apart.
 * @example const pg = watchPostgresCpu('signalbox_test_x'); ...; const { backends } = pg.stop();
 */
export function watchPostgresCpu(database: string, everyMs = 500): { stop(): { backends: number; background: number } } {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const background = new Map<number, [number, number]>();
  const sample = (initial: boolean) => {
    for (const { pid, title } of postgresProcesses()) {
      const ms = safeCpu(pid);
      if (ms === null) continue;
      if (title.includes(` ${database} `)) {
        if (!first.has(pid)) first.set(pid, initial ? ms : 0);
        last.set(pid, ms);
      } else if (!/ \d+\.\d+\.\d+\.\d+\(| \[local\]/.test(title)) {
        const seen = background.get(pid);
        background.set(pid, [seen?.[0] ?? (initial ? ms : 0), ms]);
      }
    }
  };
  sample(true);
  const timer = setInterval(() => sample(false), everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample(false);
      let backends = 0;
      for (const [pid, ms] of last) backends += ms - first.get(pid)!;
      let bg = 0;
      for (const [from, to] of background.values()) bg += to - from;
      return { backends, background: bg };
    },
  };
}

function postgresProcesses(): { pid: number; title: string }[] {
  const found: { pid: number; title: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const title = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (title.startsWith('postgres: ')) found.push({ pid: Number(name), title });
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

function safeCpu(pid: number): number | null {
  try {
    return cpuMs(pid)[0];
  } catch {
    return null;
  }
}
