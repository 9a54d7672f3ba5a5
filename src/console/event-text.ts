import type { AstroGlobal } from 'astro';
import { apiGetOr } from './runner-api.ts';
import type { ProjectEvent } from './types.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request'>;
type Named = { id: number; name?: string; title?: string };

/** Event object types whose names a project's lists give, with the list's path. */
const LISTS: Record<string, string> = {
  template: 'templates', inventory: 'inventory', repository: 'repositories', environment: 'environment',
  schedule: 'schedules', view: 'views', integration: 'integrations',
};

/** "type:id" → current name, for the objects of these events (the API names only tasks). */
export async function loadObjectNames(astro: AstroLike, projectId: number, events: ProjectEvent[]): Promise<Map<string, string>> {
  const types = [...new Set(events.map((e) => e.object_type ?? ''))].filter((type) => LISTS[type]);
  const lists = await Promise.all(types.map((type) => apiGetOr<Named[]>(astro, `/api/project/${projectId}/${LISTS[type]}`, [])));
  const names = new Map<string, string>();
  types.forEach((type, i) => lists[i]!.forEach((o) => names.set(`${type}:${o.id}`, o.name ?? o.title ?? '')));
  return names;
}

/** Semaphore names a repository in its events by its URL ("Repository git@host:site.git created"). */
const REPOSITORY_BY_URL = /^Repository (.+) (created|updated|deleted)$/;

/**
 * An event's description with its object named: "Template ID 4 created" reads
 * `Template "Deploy" created`, "Repository git@host:site.git created" `Repository "Site"
 * created`, while the object exists (a deleted one keeps its id or URL).
 * @example eventText(event, await loadObjectNames(Astro, projectId, events))
 */
export function eventText(event: Pick<ProjectEvent, 'description' | 'object_id' | 'object_type'>, names: Map<string, string>): string {
  const name = names.get(`${event.object_type}:${event.object_id}`);
  if (!name) return event.description;
  if (event.object_type === 'repository' && REPOSITORY_BY_URL.test(event.description)) {
    return event.description.replace(REPOSITORY_BY_URL, (_, _url: string, verb: string) => `Repository "${name}" ${verb}`);
  }
  return event.description.replace(new RegExp(`\\b([A-Z][\\w ]*?) ID ${event.object_id}\\b`), (_, kind: string) => `${kind} "${name}"`);
}
