import type { Db, Tx } from '../../db/database.ts';
import { APP_OPTION_PREFIX, type App, type AppField } from './app-catalog.ts';

/**
 * Stores admin settings of an app as options `apps.<id>.<field>`; an empty string or an empty
 * array removes the option (the built-in default applies again). Run it in a transaction: the
 * settings of one save are stored together.
 * @example await db.transaction().execute((tx) => saveAppSettings(tx, 'ansible', { path: '/opt/ansible/bin/ansible-playbook' }));
 */
export async function saveAppSettings(tx: Tx, id: string, settings: Partial<Omit<App, 'id'>>): Promise<void> {
  for (const [field, value] of Object.entries(settings) as [AppField, unknown][]) {
    if (value === undefined) continue;
    const key = `${APP_OPTION_PREFIX}${id}.${field}`;
    const text = Array.isArray(value) ? (value.length ? JSON.stringify(value) : '') : String(value);
    await tx.deleteFrom('option').where('key', '=', key).execute();
    if (text !== '') await tx.insertInto('option').values({ key, value: text }).execute();
  }
}

/** Removes every stored setting of an app. */
export async function deleteAppSettings(db: Db | Tx, id: string): Promise<number> {
  const prefix = `${APP_OPTION_PREFIX}${id}.`;
  const keys = (await db.selectFrom('option').select('key').where('key', 'like', `${APP_OPTION_PREFIX}%`).execute())
    .map((r) => r.key).filter((key) => key.startsWith(prefix) && !key.slice(prefix.length).includes('.'));
  if (keys.length) await db.deleteFrom('option').where('key', 'in', keys).execute();
  return keys.length;
}
