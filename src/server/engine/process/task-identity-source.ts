import type { ProcessSettings } from '../../config/config.ts';
import { ConfigError } from '../../config/config-error.ts';
import { resolveTaskUser } from './task-user.ts';
import { TaskUserPool } from './task-user-pool.ts';
import { fixedIdentity, SERVER_USER, type TaskIdentitySource } from './task-identity.ts';

/**
 * The source Semaphore's `process` settings ask for: a pool, one fixed user, or the server's.
 * Throws a ConfigError (the server does not start) when the settings cannot work here.
 * @example const identities = taskIdentitySource(config.process, config.tmp_path);
 */
export function taskIdentitySource(settings: ProcessSettings, tmpPath: string): TaskIdentitySource {
  if (settings.uid_pool) {
    if (settings.user || settings.uid !== null || settings.gid !== null) {
      throw new ConfigError('SEMAPHORE_PROCESS_UID_POOL: set either a pool or SEMAPHORE_PROCESS_USER/UID/GID, not both');
    }
    return new TaskUserPool(settings.uid_pool, settings.chroot, tmpPath);
  }
  const user = resolveTaskUser(settings);
  return user ? fixedIdentity('user', user) : SERVER_USER;
}
