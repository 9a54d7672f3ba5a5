import { ownValue } from '../lib/own-value.ts';

/** Permission bits of a project role (reference §1). */
export const Permission = {
  RunTasks: 1,
  UpdateProject: 2,
  ManageResources: 4,
  ManageUsers: 8,
} as const;

export type ProjectRole = 'owner' | 'manager' | 'task_runner' | 'guest';

export const ROLE_PERMISSIONS: Record<ProjectRole, number> = {
  owner: 15,
  manager: 5,
  task_runner: 1,
  guest: 0,
};

export const PROJECT_ROLES = Object.keys(ROLE_PERMISSIONS) as ProjectRole[];

export function permissionsOf(role: string): number {
  return ownValue(ROLE_PERMISSIONS, role) ?? 0;
}

export function hasPermission(granted: number, needed: number): boolean {
  return (granted & needed) === needed;
}
