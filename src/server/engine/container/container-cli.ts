import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { ExecutorNetwork } from '../../domain/templates/executor-fields.ts';

/**
 * The command lines of the container CLI (Podman or Docker, which take the same words for what
 * is used here). Only words are built; nothing here runs. Every value reaching these lines was
 * checked where it was saved and again when the task started (image, user, memory, cpus), the
 * paths are the server's own, and secrets never appear: the environment of a command travels
 * in a 0600 file or by name through the CLI's own environment.
 */
export type ContainerEngine = 'podman' | 'docker';

/** Labels every task container carries; crash recovery finds its containers by them. */
export const LABELS = { instance: 'io.signalbox.instance', task: 'io.signalbox.task', project: 'io.signalbox.project', template: 'io.signalbox.template' } as const;

/**
 * Which installation a container belongs to: this machine and this tmp_path, where the task's
 * folders live. Servers (or test servers, or runners) sharing the machine's engine never touch
 * each other's containers.
 * @example containerInstance('/tmp/semaphore') // '3f2a9c01be77'
 */
export function containerInstance(tmpPath: string): string {
  return createHash('sha256').update(`${hostname()}\n${resolve(tmpPath)}`).digest('hex').slice(0, 12);
}

/** The one container of a task: found again by name after a crash. */
export function taskContainerName(instance: string, taskId: number): string {
  return `signalbox-${instance}-task-${taskId}`;
}

/** The task id in a container's name, or null for a name that is not one of ours. */
export function taskIdOfContainer(instance: string, name: string): number | null {
  const match = new RegExp(`^signalbox-${instance}-task-(\\d+)$`).exec(name.trim());
  return match ? Number(match[1]) : null;
}

/** What the container idles on between the task's commands: any image has `sleep`, and as PID 1 it ignores every signal but SIGKILL. */
export const IDLE = { entrypoint: 'sleep', args: ['2147483647'] };

export interface ContainerSpec {
  name: string;
  image: string;
  labels: Record<string, string>;
  /** host paths mounted at the same path inside, so every path the apps build stays true */
  mounts: { path: string; readOnly: boolean }[];
  network: ExecutorNetwork;
  cpus: string | null;
  memory: string | null;
  user: string | null;
}

/**
 * Starts the task's container in the background, idle until commands are run in it with `exec`.
 * @example runArgs(spec) // ['run', '--detach', '--rm', '--name', 'signalbox-1a2b-task-7', ..., '--', 'alpine:3', '2147483647']
 */
export function runArgs(spec: ContainerSpec): string[] {
  const args = ['run', '--detach', '--rm', '--name', spec.name, '--pull=never'];
  for (const [key, value] of Object.entries(spec.labels)) args.push('--label', `${key}=${value}`);
  if (spec.network !== 'bridge') args.push(`--network=${spec.network}`);
  if (spec.cpus) args.push(`--cpus=${spec.cpus}`);
  if (spec.memory) args.push(`--memory=${spec.memory}`);
  if (spec.user) args.push(`--user=${spec.user}`);
  for (const mount of spec.mounts) args.push(`--volume=${mountText(mount)}`);
  // an init of the engine's (containers.conf may ask for one) would die with `sleep` when a stop signals every process
  args.push('--init=false');
  args.push(`--entrypoint=${IDLE.entrypoint}`, '--', spec.image, ...IDLE.args);
  return args;
}

function mountText(mount: { path: string; readOnly: boolean }): string {
  // `:` separates the volume's parts; tmp_path and the folders under it never hold one (checked at start)
  return `${mount.path}:${mount.path}:${mount.readOnly ? 'ro' : 'rw'}`;
}

/**
 * Runs one command in the task's container: its working directory, its environment from a
 * file (values of one line) and by name from the CLI's own environment (values of several lines).
 * @example execArgs('ctr', { cwd: '/tmp/semaphore/task_7', envFile: '/tmp/…/.env-1', envNames: ['KEY'] }, 'bash', ['run.sh'])
 */
export function execArgs(name: string, options: { cwd: string; envFile: string; envNames: string[] }, command: string, args: string[]): string[] {
  const words = ['exec', `--workdir=${options.cwd}`, `--env-file=${options.envFile}`];
  for (const env of options.envNames) words.push(`--env=${env}`);
  return [...words, name, command, ...args];
}

/** A graceful stop: SIGTERM to every process of the container but its idle PID 1 (`sh` is in nearly every image; without it the kill after the grace period ends the task). */
export function terminateAllArgs(name: string): string[] {
  return ['exec', name, 'sh', '-c', 'kill -TERM -1'];
}

/** SIGKILL to PID 1: the kernel then kills every process of the container, which `--rm` removes. */
export function killArgs(name: string): string[] {
  return ['kill', '--signal=KILL', name];
}

/** Removes the container whatever its state, at once (Podman otherwise waits out its stop timeout). */
export function removeArgs(engine: ContainerEngine, name: string): string[] {
  return engine === 'podman' ? ['rm', '--force', '--time=0', name] : ['rm', '--force', name];
}

/** Names of every container, running or not, that carries `label=value`. */
export function listArgs(label: string, value: string): string[] {
  return ['ps', '--all', `--filter=label=${label}=${value}`, '--format={{.Names}}'];
}

/** Exits 0 when the image is on this machine. */
export function imageExistsArgs(image: string): string[] {
  return ['image', 'inspect', '--format={{.Id}}', image];
}

export function pullArgs(image: string): string[] {
  return ['pull', '--quiet', image];
}

/** Signs in with the password read from stdin; where the credentials go is set through the environment (see registryAuthEnv). */
export function loginArgs(registry: string, username: string): string[] {
  return ['login', `--username=${username}`, '--password-stdin', registry];
}

/**
 * The environment that keeps a task's registry credentials in its own folder, never in the
 * server's: Podman's auth file, Docker's config directory.
 */
export function registryAuthEnv(engine: ContainerEngine, dir: string): Record<string, string> {
  return engine === 'podman' ? { REGISTRY_AUTH_FILE: `${dir}/auth.json` } : { DOCKER_CONFIG: dir };
}
