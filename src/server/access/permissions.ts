import { ownValue } from '../lib/own-value.ts';

/**
 * Permission bits of a project role. 1, 2, 4 and 8 are Semaphore's (reference §1), 16 is the
 * template visibility bit of Semaphore's develop branch; the higher bits are finer parts of
 * those: a role holding a coarse bit holds its parts too (see IMPLIED_BITS).
 */
export const Permission = {
  RunTasks: 1,
  UpdateProject: 2,
  ManageResources: 4,
  ManageUsers: 8,
  ViewTemplates: 16,
  EditInventories: 32,
  EditEnvironments: 64,
  ManageKeys: 128,
  ManageSchedules: 256,
  ApproveGates: 512,
  ReadAudit: 1024,
} as const;

export type PermissionName = keyof typeof Permission;

/** Every bit a role may hold, in the order screens list them. */
export const PERMISSION_NAMES = Object.keys(Permission) as PermissionName[];

/** All bits together: a role's bits outside this are refused. */
export const ALL_PERMISSIONS = PERMISSION_NAMES.reduce((bits, name) => bits | Permission[name], 0);

/** The finer bits each coarse bit includes, so Semaphore's roles answer as they always did. */
const IMPLIED_BITS: [number, number][] = [
  [Permission.RunTasks, Permission.ApproveGates],
  [Permission.UpdateProject, Permission.ReadAudit],
  [Permission.ManageResources, Permission.EditInventories | Permission.EditEnvironments | Permission.ManageKeys | Permission.ManageSchedules],
];

export type ProjectRole = 'owner' | 'manager' | 'task_runner' | 'guest';

/** Semaphore's four roles and the bits `/role` reports for them. */
export const ROLE_PERMISSIONS: Record<ProjectRole, number> = {
  owner: 15,
  manager: 5,
  task_runner: 1,
  guest: 0,
};

export const PROJECT_ROLES = Object.keys(ROLE_PERMISSIONS) as ProjectRole[];

export function isBuiltInRole(role: string): role is ProjectRole {
  return ownValue(ROLE_PERMISSIONS, role) !== undefined;
}

/** Bits of a built-in role as Semaphore reports them (0 for anything else). */
export function permissionsOf(role: string): number {
  return ownValue(ROLE_PERMISSIONS, role) ?? 0;
}

/**
 * The bits a role acts with: its own, the parts of its coarse bits, and for Semaphore's four
 * roles the template visibility every member has there.
 * @example effectivePermissions(5, true) & Permission.EditInventories // a manager edits inventories
 */
export function effectivePermissions(bits: number, builtIn: boolean): number {
  let granted = bits & ALL_PERMISSIONS;
  for (const [coarse, parts] of IMPLIED_BITS) if (granted & coarse) granted |= parts;
  return builtIn ? granted | Permission.ViewTemplates : granted;
}

export function hasPermission(granted: number, needed: number): boolean {
  return (granted & needed) === needed;
}
