import { parseArgs } from 'node:util';
import type { Config } from '../config/config.ts';
import { migrateToLatest, openDatabase, type Db } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { parseWith } from '../http/validation.ts';
import { findUserByLogin } from '../domain/users/user.repository.ts';
import { userRowToUser } from '../domain/users/user.ts';
import { userCreateSchema, userUpdateSchema } from '../domain/users/user.schema.ts';
import { changePassword, createUser, deleteUser, listUsers, updateUser } from '../domain/users/user.service.ts';

const OPTIONS = {
  login: { type: 'string' },
  name: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  admin: { type: 'boolean' },
} as const;

type Flags = { login?: string; name?: string; email?: string; password?: string; admin?: boolean };

const USAGE = 'use: user add --login L --name N --email E --password P [--admin] | change-by-login --login L [--name --email --password --admin] | change-by-email --email E [...] | delete --login L|--email E | get --login L|--email E | list';

/**
 * `signalbox user add|change-by-login|change-by-email|delete|get|list` with Semaphore's flags.
 * Goes through the same validation and service functions as `/api/users`.
 * @example signalbox user add --login jane --name Jane --email jane@example.com --password s3cret --admin
 */
export async function runUserCommand(config: Config, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  let flags: Flags;
  try {
    flags = parseArgs({ args: rest, options: OPTIONS, strict: true, allowPositionals: false, allowNegative: true }).values;
  } catch (err) {
    console.error(`user ${action ?? ''}: ${(err as Error).message}`);
    return 2;
  }
  const db = openDatabase(config.db);
  try {
    await migrateToLatest(db);
    return await runAction(db, action, flags);
  } catch (err) {
    if (err instanceof ApiError) {
      console.error(`user ${action}: ${err.message || err.code}`);
      return 1;
    }
    throw err;
  } finally {
    await db.destroy();
  }
}

async function runAction(db: Db, action: string | undefined, flags: Flags): Promise<number> {
  switch (action) {
    case 'add': {
      const input = parseWith(userCreateSchema, { username: flags.login, name: flags.name, email: flags.email, password: flags.password, admin: flags.admin ?? false });
      const user = await db.transaction().execute((tx) => createUser(tx, input, null));
      console.log(`user ${user.username} created (id ${user.id})`);
      return 0;
    }
    case 'change-by-login':
    case 'change-by-email': {
      const by = action === 'change-by-login' ? flags.login : flags.email;
      const user = await findTarget(db, by, action === 'change-by-login' ? '--login' : '--email');
      const input = parseWith(userUpdateSchema, {
        username: action === 'change-by-login' ? user.username : (flags.login ?? user.username),
        name: flags.name ?? user.name, email: action === 'change-by-email' ? user.email : (flags.email ?? user.email),
        admin: flags.admin ?? Boolean(user.admin),
      });
      await db.transaction().execute(async (tx) => {
        await updateUser(tx, user, input, null);
        if (flags.password !== undefined) await changePassword(tx, user, flags.password, null);
      });
      console.log(`user ${input.username} changed`);
      return 0;
    }
    case 'delete': {
      const user = await findTarget(db, flags.login ?? flags.email, '--login or --email');
      await db.transaction().execute((tx) => deleteUser(tx, user, null));
      console.log(`user ${user.username} deleted`);
      return 0;
    }
    case 'get': {
      const user = await findTarget(db, flags.login ?? flags.email, '--login or --email');
      console.log(JSON.stringify(userRowToUser(user), null, 2));
      return 0;
    }
    case 'list':
      for (const user of await listUsers(db)) console.log(user.username);
      return 0;
    default:
      console.error(`user ${action ?? ''}: unknown action; ${USAGE}`);
      return 2;
  }
}

async function findTarget(db: Db, login: string | undefined, flag: string): Promise<UserRow> {
  if (!login) throw new ApiError('bad_request', `${flag} is required`);
  const user = await findUserByLogin(db, login);
  if (!user) throw new ApiError('not_found', `no user "${login}"`);
  return user;
}
