import type { ExecutorSettings } from '../../config/config.ts';
import { imageReferenceProblem } from '../../lib/image-reference.ts';
import { EXECUTOR_NETWORKS, executorTemplateFields, PULL_POLICIES, type ExecutorNetwork, type PullPolicy } from '../../domain/templates/executor-fields.ts';
import type { TaskDetails, KeySecret } from '../run/task-details.ts';
import type { ContainerEngine } from './container-cli.ts';

/** What a task's settings ask of its container: which image, how it is pulled, what it may use. */
export interface ContainerPlan {
  engine: ContainerEngine;
  image: string;
  pull: PullPolicy;
  network: ExecutorNetwork;
  cpus: string | null;
  memory: string | null;
  user: string | null;
  /** login and password for the image's registry */
  registryKey: KeySecret | null;
}

/**
 * The container a task runs in, or null to run on the host: the template's image, else its
 * project's, else the server's (runner's) SEMAPHORE_EXECUTOR_IMAGE. Stored values are checked
 * again (rows restored or written before the rules) so none reaches the CLI as an option.
 * @example containerPlanFor(details, config.executor) // { engine: 'podman', image: 'localhost/ansible:2.19', pull: 'if-missing', network: 'none', ... }
 */
export function containerPlanFor(details: TaskDetails, settings: ExecutorSettings): ContainerPlan | null {
  const { template } = details;
  const image = taskImageOf(template, details.project, settings);
  if (!image) return null;
  const problem = imageReferenceProblem(image);
  if (problem) throw new Error(`executor image ${JSON.stringify(image)} ${problem}`);
  const network = (template.executor_network ?? 'bridge') as ExecutorNetwork;
  if (!EXECUTOR_NETWORKS.includes(network)) throw new Error(`executor network ${JSON.stringify(network)} must be bridge, none or host`);
  const pull = (template.executor_pull || settings.pull) as PullPolicy;
  if (!PULL_POLICIES.includes(pull)) throw new Error(`executor pull policy ${JSON.stringify(pull)} must be always, if-missing or never`);
  return {
    engine: settings.engine,
    image, pull, network,
    cpus: checked('executor_cpus', template.executor_cpus === null ? null : Number(template.executor_cpus)),
    memory: checked('executor_memory', template.executor_memory),
    user: checked('executor_user', template.executor_user),
    registryKey: details.registryKey,
  };
}

/**
 * The image a task of `template` runs in ('' = on the host): the template's, else its project's,
 * else the server's (runner's) default.
 * @example taskImageOf({ executor_image: null }, { executor_image: 'team/ansible:2.19' }, config.executor) // 'team/ansible:2.19'
 */
export function taskImageOf(template: { executor_image: string | null }, project: { executor_image: string | null }, settings: Pick<ExecutorSettings, 'image'>): string {
  return (template.executor_image || project.executor_image || settings.image).trim();
}

/** A stored value run through the API's own rule for it; null when unset. */
function checked(field: 'executor_cpus' | 'executor_memory' | 'executor_user', value: string | number | null): string | null {
  if (value === null || value === '') return null;
  const result = executorTemplateFields[field].safeParse(value);
  if (!result.success) throw new Error(`${field} ${JSON.stringify(value)}: ${result.error.issues[0]?.message ?? 'not allowed'}`);
  return String(value);
}

/**
 * The numeric owner the task's files are handed to, when the container runs as `uid[:gid]`
 * (a name means nothing on the host: the files stay the server's).
 * @example fileOwnerOf('1000:1000') // { uid: 1000, gid: 1000 }
 */
export function fileOwnerOf(user: string | null): { uid: number; gid: number } | null {
  const match = user ? /^(\d+)(?::(\d+))?$/.exec(user) : null;
  if (!match) return null;
  return { uid: Number(match[1]), gid: Number(match[2] ?? match[1]) };
}
