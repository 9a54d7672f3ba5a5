import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { now } from '../../lib/time.ts';
import { LineSplitter } from './line-splitter.ts';
import { launchFor } from './launch.ts';
import type { TaskUser } from './task-user.ts';

/** How long a stopped process gets between SIGTERM and SIGKILL. */
export const STOP_GRACE_MS = 5000;
/** After the main process exits, how long stray children may keep its pipes open. */
const PIPE_CLOSE_WAIT_MS = 2000;

export interface ProcessSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** run as this OS user (and chroot) instead of the server's own */
  user?: TaskUser | null;
}

/** Where output lines go; `write` returning false pauses the process until `drained()`. */
export interface LineSink {
  write(line: string, time: string): boolean;
  drained(): Promise<void>;
}

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningProcess {
  readonly pid: number | undefined;
  /** settles when the process has exited and its output has been read */
  readonly done: Promise<ProcessResult>;
  /** ends the whole process group: SIGTERM then SIGKILL after the grace period, or SIGKILL at once */
  kill(force: boolean): void;
}

/**
 * Starts a command in its own process group (so a stop reaches every child it spawned), with
 * stdin empty and stdout/stderr read as lines into `sink`.
 * @example const p = startProcess({ command: 'bash', args: ['run.sh'], cwd, env }, writer); await p.done;
 */
export function startProcess(spec: ProcessSpec, sink: LineSink): RunningProcess {
  const launch = launchFor(spec.command, spec.args, spec.cwd, spec.env, spec.user ?? null);
  const cwd = spec.user?.chroot ? '/' : spec.cwd;
  const child = spawn(launch.command, launch.args, { cwd, env: spec.env, uid: launch.uid, gid: launch.gid, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let killTimer: NodeJS.Timeout | null = null;
  let exited = false;
  const signalGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try { process.kill(-child.pid, signal); } catch { /* already gone */ }
  };

  const streams = [child.stdout!, child.stderr!];
  const paused = { value: false };
  const pauseUntilDrained = () => {
    if (paused.value) return;
    paused.value = true;
    for (const s of streams) s.pause();
    void sink.drained().then(() => {
      paused.value = false;
      for (const s of streams) s.resume();
    });
  };
  const reading = Promise.all(streams.map((s) => readLines(s, sink, pauseUntilDrained)));

  const done = new Promise<ProcessResult>((resolve, reject) => {
    child.once('error', (err) => {
      if (killTimer) clearTimeout(killTimer);
      reject(new Error(`cannot start ${spec.command}: ${err.message}`));
    });
    child.once('exit', (code, signal) => {
      exited = true;
      if (killTimer) clearTimeout(killTimer);
      // Children left behind would hold the pipes open; give them a moment, then end them.
      const late = setTimeout(() => {
        signalGroup('SIGKILL');
        for (const s of streams) s.destroy();
      }, PIPE_CLOSE_WAIT_MS);
      void reading.finally(() => {
        clearTimeout(late);
        resolve({ code, signal });
      });
    });
  });

  return {
    pid: child.pid,
    done,
    kill(force) {
      if (exited) return signalGroup('SIGKILL');
      if (force) return signalGroup('SIGKILL');
      signalGroup('SIGTERM');
      killTimer ??= setTimeout(() => signalGroup('SIGKILL'), STOP_GRACE_MS);
    },
  };
}

function readLines(stream: Readable, sink: LineSink, pause: () => void): Promise<void> {
  const splitter = new LineSplitter();
  return new Promise((resolve) => {
    stream.on('data', (chunk: Buffer) => {
      const time = now();
      let full = false;
      for (const line of splitter.push(chunk)) if (!sink.write(line, time)) full = true;
      if (full) pause();
    });
    const finish = () => {
      const time = now();
      for (const line of splitter.end()) sink.write(line, time);
      resolve();
    };
    stream.once('end', finish);
    stream.once('close', finish);
  });
}
