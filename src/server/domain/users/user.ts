import type { UserRow } from '../../db/schema.ts';
import type { Config } from '../../config/config.ts';

/** A user as the API shows it; the password hash never leaves the server. */
export interface User {
  id: number;
  created: string;
  username: string;
  name: string;
  email: string;
  admin: boolean;
  external: boolean;
  alert: boolean;
  can_create_project: boolean;
  pro: boolean;
}

export function userRowToUser(row: UserRow): User {
  return {
    id: row.id,
    created: row.created,
    username: row.username,
    name: row.name,
    email: row.email,
    admin: Boolean(row.admin),
    external: Boolean(row.external),
    alert: Boolean(row.alert),
    can_create_project: Boolean(row.can_create_project),
    pro: false,
  };
}

/** Admins, users an admin allowed, and everyone when `non_admin_can_create_project` is on may create (or restore) projects. */
export function mayCreateProject(user: UserRow, config: Pick<Config, 'non_admin_can_create_project'>): boolean {
  return Boolean(user.admin || user.can_create_project) || config.non_admin_can_create_project;
}
