import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { startProcess, STOP_GRACE_MS, type LineSink, type RunningProcess } from '../process/run-process.ts';
import { TASK_MARKER_VAR } from '../queue/task-processes.ts';
import { containerInstance, execArgs, killArgs, LABELS, removeArgs, runArgs, taskContainerName, terminateAllArgs, type ContainerSpec } from './container-cli.ts';
import { containerCommand, reasonOf } from './container-command.ts';
import { ensureImage } from './container-image.ts';
import type { ContainerPlan } from './container-plan.ts';
import type { TaskIdentity } from '../process/task-identity.ts';

/** After the container is killed, how long its `exec` clients get to notice before they are ended too. */
const CLIENT_END_WAIT_MS = 2000;

/**
 * The identity of a run in a container: the container's own (its user, its namespaces), so no
 * OS user of the host is taken for it; its git runs on the host as the server.
 */
export const CONTAINER_IDENTITY: TaskIdentity = { user: null, account: null, release: async () => {} };

/** Marks a tmp_path whose tasks have run in containers: only then does a start look for leftovers. */
export const CONTAINERS_USED_MARKER = '.signalbox-containers';

export interface TaskContainerOptions {
  plan: ContainerPlan;
  task: { id: number; project_id: number; template_id: number };
  tmpPath: string;
  /** host paths the task works with, mounted at the same path (secrets read-only) */
  mounts: { path: string; readOnly: boolean }[];
  /** a host-only folder of the task: environment files and registry credentials, never mounted */
  privateDir: string;
  log: (line: string) => void;
}

/** One command of the task, as the apps ask for it. */
export interface ContainerCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/**
 * The container one task runs in: a fresh container of the task's image, idle between the
 * task's commands, each run in it with `exec` (live output, exit code). A stop sends SIGTERM to
 * every process in it, then kills the container after the grace period; a force stop kills it
 * at once. Its name and labels name the task, so a server that died mid-task finds it again.
 * @example const c = await TaskContainer.start(options); const p = c.exec({ command: 'bash', args: ['run.sh'], cwd, env }, sink); await p.done; await c.remove();
 */
export class TaskContainer {
  readonly name: string;
  readonly #plan: ContainerPlan;
  readonly #privateDir: string;
  readonly #clients = new Set<RunningProcess>();
  #commands = 0;
  #killTimer: NodeJS.Timeout | null = null;
  #killed = false;

  private constructor(name: string, plan: ContainerPlan, privateDir: string) {
    this.name = name;
    this.#plan = plan;
    this.#privateDir = privateDir;
  }

  /** Makes the image available (pull policy, registry login), then starts the task's container. */
  static async start(options: TaskContainerOptions): Promise<TaskContainer> {
    const { plan, task } = options;
    for (const { path } of options.mounts) {
      if (!isAbsolute(path) || /[:,]/.test(path)) throw new Error(`cannot mount ${JSON.stringify(path)} into a container: use a tmp_path without ":" or ","`);
    }
    mkdirSync(options.privateDir, { recursive: true, mode: 0o700 });
    await ensureImage(plan, options.privateDir, options.log);
    const instance = containerInstance(options.tmpPath);
    const spec: ContainerSpec = {
      name: taskContainerName(instance, task.id), image: plan.image,
      labels: { [LABELS.instance]: instance, [LABELS.task]: String(task.id), [LABELS.project]: String(task.project_id), [LABELS.template]: String(task.template_id) },
      mounts: options.mounts, network: plan.network, cpus: plan.cpus, memory: plan.memory, user: plan.user,
    };
    noteContainersUsed(options.tmpPath);
    let started = await containerCommand(plan.engine, runArgs(spec));
    if (started.code !== 0 && /already in use|already exists/i.test(started.stderr)) {
      // a container of this task outlived a crash that recovery has not seen yet
      await containerCommand(plan.engine, removeArgs(plan.engine, spec.name));
      started = await containerCommand(plan.engine, runArgs(spec));
    }
    if (started.code !== 0) throw new Error(`cannot start a container of ${plan.image}: ${reasonOf(started)}`);
    return new TaskContainer(spec.name, plan, options.privateDir);
  }

  /**
   * Runs one command in the container. Its environment reaches the command only: values of one
   * line through a 0600 file in the private folder, values of several lines by name through the
   * CLI's own environment; neither is in the container's configuration (`inspect`) or any
   * command line. Killing the returned process stops the container's processes.
   */
  exec(command: ContainerCommand, sink: LineSink): RunningProcess {
    const { lines, byName } = splitEnvironment(command.env);
    const envFile = join(this.#privateDir, `.env-${++this.#commands}`);
    writeFileSync(envFile, lines, { mode: 0o600 });
    const marker = command.env[TASK_MARKER_VAR];
    const client = startProcess({
      command: this.#plan.engine,
      args: execArgs(this.name, { cwd: command.cwd, envFile, envNames: Object.keys(byName) }, command.command, command.args),
      cwd: this.#privateDir,
      env: { ...serverEnvironment(), ...byName, ...(marker ? { [TASK_MARKER_VAR]: marker } : {}) },
    }, sink);
    this.#clients.add(client);
    const done = client.done.finally(() => {
      this.#clients.delete(client);
      rmSync(envFile, { force: true });
    });
    return { pid: client.pid, done, kill: (force) => this.stop(force) };
  }

  /** SIGTERM to every process of the container, then the kill after the grace period; with force the kill at once. */
  stop(force: boolean): void {
    if (force) return this.#kill();
    if (this.#killTimer || this.#killed) return;
    void containerCommand(this.#plan.engine, terminateAllArgs(this.name));
    this.#killTimer = setTimeout(() => this.#kill(), STOP_GRACE_MS);
  }

  #kill(): void {
    if (this.#killTimer) clearTimeout(this.#killTimer);
    this.#killTimer = null;
    if (this.#killed) return;
    this.#killed = true;
    void containerCommand(this.#plan.engine, killArgs(this.name)).then(() => {
      // a client the engine does not release (it lost the container) is ended here
      const late = setTimeout(() => { for (const client of this.#clients) client.kill(true); }, CLIENT_END_WAIT_MS);
      late.unref();
    });
  }

  /** Removes the container (killed if still running); resolves with why it could not be, or null. */
  async remove(): Promise<string | null> {
    if (this.#killTimer) clearTimeout(this.#killTimer);
    const removed = await containerCommand(this.#plan.engine, removeArgs(this.#plan.engine, this.name));
    return removed.code === 0 || /no such container/i.test(removed.stderr) ? null : reasonOf(removed);
  }
}

/**
 * The task's environment in the two ways `exec` takes it: `NAME=value` lines for an env file,
 * which holds one line per variable, and the rest by name. A value of several lines whose name
 * the CLI itself reads from the server's environment (PATH, HOME...) cannot go either way.
 */
function splitEnvironment(env: Record<string, string>): { lines: string; byName: Record<string, string> } {
  let lines = '';
  const byName: Record<string, string> = {};
  const server = serverEnvironment();
  for (const [name, value] of Object.entries(env)) {
    if (!/^[^=\s#][^=\s]*$/.test(name)) throw new Error(`the environment variable ${JSON.stringify(name)} cannot be passed into a container (its name holds a space or "=")`);
    if (!/[\r\n]/.test(value)) {
      lines += `${name}=${value}\n`;
    } else if (name in server) {
      throw new Error(`the environment variable ${name} holds several lines and is named like one of the server's own; rename it to pass it into a container`);
    } else {
      byName[name] = value;
    }
  }
  return { lines, byName };
}

/** The container CLI's environment: the server's own (its PATH, HOME, CONTAINERS_CONF, DOCKER_HOST...). */
function serverEnvironment(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function noteContainersUsed(tmpPath: string): void {
  const marker = join(tmpPath, CONTAINERS_USED_MARKER);
  if (!existsSync(marker)) writeFileSync(marker, '', { mode: 0o600 });
}
