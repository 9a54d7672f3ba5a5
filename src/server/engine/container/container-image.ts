import { registryOf } from '../../lib/image-reference.ts';
import { imageExistsArgs, loginArgs, pullArgs, registryAuthEnv } from './container-cli.ts';
import { containerCommand, reasonOf } from './container-command.ts';
import type { ContainerPlan } from './container-plan.ts';

/**
 * Makes the task's image available as its pull policy says: `always` pulls before every task,
 * `if-missing` only when the machine lacks it, `never` uses what is there (an image built or
 * imported locally, with no registry). With a registry key the CLI signs in first; the
 * credentials live in `authDir` (the task's own, removed after it) and the password goes
 * through stdin only.
 * @example await ensureImage(plan, '/tmp/semaphore/container_7', (line) => job.log(line));
 */
export async function ensureImage(plan: ContainerPlan, authDir: string, log: (line: string) => void): Promise<void> {
  const { engine, image, pull } = plan;
  if (pull === 'never') return;
  if (pull === 'if-missing') {
    const found = await containerCommand(engine, imageExistsArgs(image));
    if (found.code === 0) return;
    if (found.code === 127) throw new Error(reasonOf(found));
  }
  const env = registryAuthEnv(engine, authDir);
  const key = plan.registryKey;
  if (key?.login || key?.password) {
    const registry = registryOf(image);
    const login = await containerCommand(engine, loginArgs(registry, key.login), { env, input: `${key.password}\n` });
    if (login.code !== 0) throw new Error(`cannot sign in to ${registry}: ${reasonOf(login)}`);
  }
  log(`Pulling image ${image}`);
  const pulled = await containerCommand(engine, pullArgs(image), { env });
  if (pulled.code !== 0) throw new Error(`cannot pull image ${image}: ${reasonOf(pulled)}`);
}
