import { ApiError } from '../../../../http/errors.ts';
import { hasPermission, Permission } from '../../../../access/permissions.ts';
import type { LaunchRule } from '../launch.ts';

/** Why a person's start is refused for their role (HTTP routes answer it as a bodiless 403, as Semaphore does). */
export const ROLE_REFUSAL = 'the user may not run tasks in this project';

/**
 * The person a task starts for must be allowed to run tasks in the project (a system admin
 * always is): checked here too for paths that start later than the request (a workflow run's
 * nodes, when the person who started it may have lost the role since). Also decides whether
 * the values may do what editing the template could: the caller's own when they may manage
 * the project's resources; a configuration's (schedule, integration, workflow) always, as only
 * such a person can save one.
 */
export const callerRole: LaunchRule = {
  name: 'caller role',
  check(launch) {
    const { user, permissions, valuesFrom, outsideValues } = launch.starter;
    const admin = Boolean(user?.admin);
    if (user && !admin && !hasPermission(permissions, Permission.RunTasks)) throw new ApiError('forbidden', ROLE_REFUSAL);
    launch.editor = valuesFrom === 'configuration' || admin || hasPermission(permissions, Permission.ManageResources);
    launch.task.trustedValues = launch.editor && !outsideValues;
  },
};
