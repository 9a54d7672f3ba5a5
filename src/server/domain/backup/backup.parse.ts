import { ApiError, badRequest } from '../../http/errors.ts';
import { parseWith } from '../../http/validation.ts';
import { BACKUP_SECTION_ITEMS, type Backup, type BackupOutline, type BackupSection } from './backup.schema.ts';

/**
 * Checks every item of a backup whose outline (sections within their limits) already passed,
 * calling `pause` after each, so a big backup never holds the event loop. Messages name the
 * item as the API's validation does: `keys.0.type: …`.
 * @example const backup = await parseBackupItems(outline, timeSlicer());
 */
export async function parseBackupItems(outline: BackupOutline, pause: () => Promise<void>): Promise<Backup> {
  const backup: Record<string, unknown> = { ...outline };
  for (const section of Object.keys(BACKUP_SECTION_ITEMS) as BackupSection[]) {
    const items = outline[section];
    if (!items) continue;
    const parsed: unknown[] = [];
    for (const [i, item] of items.entries()) {
      parsed.push(parseItem(section, i, item));
      await pause();
    }
    backup[section] = parsed;
  }
  return backup as Backup;
}

function parseItem(section: BackupSection, index: number, item: unknown): unknown {
  try {
    return parseWith(BACKUP_SECTION_ITEMS[section], item);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'bad_request') throw err;
    // parseWith names the field inside the item, or `body` for the item itself
    throw badRequest(`${section}.${index}${err.message.startsWith('body:') ? err.message.slice(4) : `.${err.message}`}`);
  }
}
