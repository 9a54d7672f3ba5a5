import type { UserRow } from '../../db/schema.ts';

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
    pro: false,
  };
}
