import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { Config } from '../../config/config.ts';
import type { Db } from '../../db/database.ts';
import { ownValue } from '../../lib/own-value.ts';

/** An app as `GET /api/apps` shows it. `path` is the command run for its tasks. */
export interface App {
  id: string;
  active: boolean;
  priority: number;
  title: string;
  icon: string;
  color: string;
  dark_color: string;
  path: string;
  args: string[];
}

type AppDefaults = Omit<App, 'id' | 'active'>;

/** The apps every installation knows; they cannot be deleted. `path` is the binary looked up on PATH. */
export const BUILT_IN_APPS: Readonly<Record<string, AppDefaults>> = {
  ansible: { priority: 1000, title: 'Ansible Playbook', icon: 'mdi-ansible', color: 'black', dark_color: 'white', path: 'ansible-playbook', args: [] },
  terraform: { priority: 900, title: 'Terraform Code', icon: 'mdi-terraform', color: '#7b42bc', dark_color: '#7b42bc', path: 'terraform', args: [] },
  tofu: { priority: 800, title: 'OpenTofu Code', icon: 'mdi-language-go', color: 'black', dark_color: 'white', path: 'tofu', args: [] },
  bash: { priority: 700, title: 'Bash Script', icon: 'mdi-bash', color: 'black', dark_color: 'white', path: 'bash', args: [] },
  powershell: { priority: 600, title: 'PowerShell Script', icon: 'mdi-powershell', color: 'blue', dark_color: '#4f8fde', path: 'pwsh', args: [] },
  python: { priority: 500, title: 'Python Script', icon: 'mdi-language-python', color: '#306998', dark_color: '#ffd43b', path: 'python3', args: [] },
  pulumi: { priority: 400, title: 'Pulumi Code', icon: 'mdi-cloud-outline', color: '#8a3391', dark_color: '#f7bf2a', path: 'pulumi', args: [] },
};

/** Fields an admin may set; each is stored as option `apps.<id>.<field>`. */
export const APP_FIELDS = ['active', 'priority', 'title', 'icon', 'color', 'dark_color', 'path', 'args'] as const;
export type AppField = (typeof APP_FIELDS)[number];

export const APP_OPTION_PREFIX = 'apps.';

/** True for the apps shipped with the server. */
export function isBuiltInApp(id: string): boolean {
  return Object.hasOwn(BUILT_IN_APPS, id);
}

/**
 * True when `command` names an executable: an absolute path that can be run, or a name found
 * in one of the PATH directories.
 * @example isOnPath('bash') // true on most machines
 */
export function isOnPath(command: string, pathVar = process.env.PATH ?? ''): boolean {
  const candidates = isAbsolute(command) ? [command] : pathVar.split(delimiter).filter(Boolean).map((dir) => join(dir, command));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Option rows `apps.<id>.<field>` grouped by app id; only one app's rows when `onlyId` is given (a task start). */
async function readAppOptions(db: Db, onlyId?: string): Promise<Map<string, Partial<Record<AppField, string>>>> {
  const query = db.selectFrom('option').select(['key', 'value']);
  const rows = await (onlyId === undefined
    ? query.where('key', 'like', `${APP_OPTION_PREFIX}%`)
    : query.where('key', 'in', APP_FIELDS.map((field) => `${APP_OPTION_PREFIX}${onlyId}.${field}`))).execute();
  const byApp = new Map<string, Partial<Record<AppField, string>>>();
  for (const { key, value } of rows) {
    const rest = key.slice(APP_OPTION_PREFIX.length);
    const dot = rest.lastIndexOf('.');
    const id = rest.slice(0, dot);
    const field = rest.slice(dot + 1) as AppField;
    if (!id || !(APP_FIELDS as readonly string[]).includes(field)) continue;
    byApp.set(id, { ...byApp.get(id), [field]: value });
  }
  return byApp;
}

function parseArgs(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.map(String) : undefined;
  } catch {
    return undefined;
  }
}

function parseFlag(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return value === true || value === 'true' || value === '1' || value === 1;
}

/** Settings from SEMAPHORE_APPS / config.json `apps` (`{"ansible": {"path": "..."}}`). */
function configAppSettings(config: Config, id: string): Partial<App> {
  const raw = ownValue(config.apps, id);
  if (!raw || typeof raw !== 'object') return {};
  const entry = raw as Record<string, unknown>;
  const out: Partial<App> = {};
  for (const field of ['title', 'icon', 'color', 'dark_color', 'path'] as const) if (typeof entry[field] === 'string') out[field] = entry[field] as string;
  if (typeof entry.priority === 'number') out.priority = entry.priority;
  if (Array.isArray(entry.args)) out.args = entry.args.map(String);
  const active = parseFlag(entry.active);
  if (active !== undefined) out.active = active;
  return out;
}

function effectiveApp(id: string, config: Config, options: Partial<Record<AppField, string>> | undefined): App {
  const base: AppDefaults = ownValue(BUILT_IN_APPS, id) ?? { priority: 0, title: id, icon: 'mdi-application', color: 'black', dark_color: 'white', path: id, args: [] };
  const fromConfig = configAppSettings(config, id);
  const o = options ?? {};
  const priority = o.priority !== undefined && Number.isFinite(Number(o.priority)) ? Number(o.priority) : undefined;
  const app: App = {
    id,
    active: false,
    priority: priority ?? fromConfig.priority ?? base.priority,
    title: o.title ?? fromConfig.title ?? base.title,
    icon: o.icon ?? fromConfig.icon ?? base.icon,
    color: o.color ?? fromConfig.color ?? base.color,
    dark_color: o.dark_color ?? fromConfig.dark_color ?? base.dark_color,
    path: o.path ?? fromConfig.path ?? base.path,
    args: parseArgs(o.args) ?? fromConfig.args ?? base.args,
  };
  // An explicit switch wins; otherwise a built-in app is active when its command is installed.
  app.active = parseFlag(o.active) ?? fromConfig.active ?? (isBuiltInApp(id) && isOnPath(app.path));
  return app;
}

/**
 * Every app (built-in and admin-added), highest priority first.
 * @example const apps = await listApps(deps.db, deps.config);
 */
export async function listApps(db: Db, config: Config): Promise<App[]> {
  const options = await readAppOptions(db);
  const ids = new Set([...Object.keys(BUILT_IN_APPS), ...options.keys()]);
  return [...ids].map((id) => effectiveApp(id, config, options.get(id)))
    .sort((a, b) => b.priority - a.priority || a.id.localeCompare(b.id));
}

/** One app by id, or undefined when it is neither built in nor configured. */
export async function findApp(db: Db, config: Config, id: string): Promise<App | undefined> {
  return (await listApps(db, config)).find((app) => app.id === id);
}

/**
 * How an admin changed an app's command (its options, else config `apps`; reference §5.8): the
 * task engine runs `path` instead of the app's own command line when set, and puts `args` first.
 * @example const { path, args } = await appCommandOverride(deps.db, deps.config, 'bash'); // { path: null, args: [] } untouched
 */
export async function appCommandOverride(db: Db, config: Config, appId: string): Promise<{ path: string | null; args: string[] }> {
  const options = (await readAppOptions(db, appId)).get(appId) ?? {};
  const fromConfig = configAppSettings(config, appId);
  return { path: options.path || fromConfig.path || null, args: parseArgs(options.args) ?? fromConfig.args ?? [] };
}
