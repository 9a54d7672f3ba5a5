import { z } from 'zod';
import type { Db, Tx } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';

/** Reads a JSON array of short names, as `nav.unpinnedItems` holds the drawer entries a user unpinned. */
function isNameList(value: string): boolean {
  try {
    const list = JSON.parse(value) as unknown;
    return Array.isArray(list) && list.length <= 64 && list.every((item) => typeof item === 'string' && /^[\w.-]{1,64}$/.test(item));
  } catch {
    return false;
  }
}

const NAME_LIST = { test: isNameList, expected: 'a JSON array of names' };
const DASHBOARD_VIEW = { test: (v: string) => /^(history|activity|stats|schedule)$/.test(v), expected: 'history, activity, stats or schedule' };

/**
 * The keys a user may store, each with what its value must look like. Semaphore's own key is
 * `nav.unpinnedItems`; the others carry the console's preferences across browsers. A value of ''
 * clears the option.
 */
const FIXED_KEYS: Record<string, { test: (value: string) => boolean; expected: string }> = {
  'nav.unpinnedItems': NAME_LIST,
  'nav.lastProject': { test: (v) => /^[1-9]\d{0,9}$/.test(v), expected: 'a project id' },
  // 'system': follow the browser, chosen on purpose (unlike a value never stored)
  'ui.theme': { test: (v) => /^(light|dark|system)$/.test(v), expected: 'light, dark or system' },
  'ui.language': { test: (v) => v === 'system' || /^[a-z]{2}(_[a-z]{2})?$/.test(v), expected: 'system or a language code such as en or pt_br' },
};
/** `nav.lastView.<projectId>`: the dashboard view last visited in that project. */
const LAST_VIEW_KEY = /^nav\.lastView\.[1-9]\d{0,9}$/;

/**
 * Options that only remember where a person was (the last project, the last dashboard view):
 * page views write them, so they are no audited change.
 */
export function isWhereabouts(key: string): boolean {
  return key === 'nav.lastProject' || LAST_VIEW_KEY.test(key);
}

function ruleFor(key: string) {
  if (Object.hasOwn(FIXED_KEYS, key)) return FIXED_KEYS[key]!;
  return LAST_VIEW_KEY.test(key) ? DASHBOARD_VIEW : undefined;
}

/** The body of `POST /api/user/options` (Semaphore's `Option`). */
export const userOptionSchema = z.strictObject({
  key: z.string().max(100, 'at most 100 characters'),
  value: z.string().max(4096, 'at most 4096 characters'),
});
export type UserOption = z.infer<typeof userOptionSchema>;

/** Where a user's options live in the option table: Semaphore's `user<id>.` namespace. */
const prefixOf = (userId: number) => `user${userId}.`;

/**
 * The user's options as `{key: value}`, without the namespace; a null-prototype object, so a key
 * such as `__proto__` could never reach Object.prototype.
 * @example await readUserOptions(db, 1) // { 'nav.unpinnedItems': '["team"]' }
 */
export async function readUserOptions(db: Db, userId: number): Promise<Record<string, string>> {
  const prefix = prefixOf(userId);
  const rows = await db.selectFrom('option').select(['key', 'value']).where('key', 'like', `${prefix}%`).execute();
  const options: Record<string, string> = Object.create(null);
  for (const row of rows) if (row.key.startsWith(prefix)) options[row.key.slice(prefix.length)] = row.value;
  return options;
}

/**
 * Stores one option of the user after checking the key is allowed and the value fits it; ''
 * removes it. Unknown keys answer 400, so nobody writes another user's or a global option.
 * @example await db.transaction().execute((tx) => saveUserOption(tx, 1, { key: 'ui.theme', value: 'dark' }));
 */
export async function saveUserOption(tx: Tx, userId: number, option: UserOption): Promise<UserOption> {
  const rule = ruleFor(option.key);
  if (!rule) throw badRequest(`key: unknown user option ${JSON.stringify(option.key)}`);
  if (option.value !== '' && !rule.test(option.value)) throw badRequest(`value: must be ${rule.expected}`);
  const key = prefixOf(userId) + option.key;
  await tx.deleteFrom('option').where('key', '=', key).execute();
  if (option.value !== '') await tx.insertInto('option').values({ key, value: option.value }).execute();
  return option;
}

/** Removes every option of a user (the option table has no foreign key to cascade). */
export async function deleteUserOptions(db: Db, userId: number): Promise<void> {
  const prefix = prefixOf(userId);
  await db.deleteFrom('option').where('key', 'like', `${prefix}%`).execute();
}
