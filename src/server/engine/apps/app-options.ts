import type { Db } from '../../db/database.ts';
import type { Config } from '../../config/config.ts';

/**
 * `apps.<id>.path` and `apps.<id>.args` (a JSON array) from the option table, falling back to
 * the config's `apps` map; both override how an app's command starts (reference §5.8).
 * @example const { path, args } = await readAppOptions(db, config, 'bash');
 */
export async function readAppOptions(db: Db, config: Config, appId: string): Promise<{ path: string | null; args: string[] }> {
  const rows = await db.selectFrom('option').selectAll().where('key', 'in', [`apps.${appId}.path`, `apps.${appId}.args`]).execute();
  const option = (name: string) => rows.find((r) => r.key === `apps.${appId}.${name}`)?.value;
  const fromConfig = (config.apps[appId] ?? {}) as { path?: unknown; args?: unknown };
  const path = option('path') || (typeof fromConfig.path === 'string' ? fromConfig.path : '') || null;
  return { path, args: parseArgs(option('args') ?? fromConfig.args) };
}

function parseArgs(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || !value) return [];
  try {
    const parsed = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return value.split(' ').filter(Boolean);
  }
}
