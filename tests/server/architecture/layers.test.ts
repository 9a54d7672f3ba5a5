import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * THE MAP OF THE HOUSE. Each top-level folder (or file) of a source tree is a room; the rooms
 * stand on floors, listed from the top down. A room may import rooms on any floor below its
 * own, never a room on its own floor or above: every arrow points down, so no two rooms can
 * need each other. A new room is placed here before it is built; an import that a room's
 * floor does not allow is either a piece that belongs lower (move it down) or something the
 * lower room should be handed (pass it in).
 */
type Floor = Record<string, string>;

/** src/server: the runner API, from the command line down to the foundations. */
const SERVER_FLOORS: Floor[] = [
  { 'cli/': 'the command line: server, runner, user, vault and jwt commands' },
  { 'main.ts': 'starts one server: boot, host, engine, scheduler, alerts, exports, retention' },
  { 'host/': 'the Node HTTP server: the console, static files, request guards', 'boot.ts': 'builds the Deps bag from the settings' },
  { 'app.ts': 'the Hono app: its middleware in order and every route' },
  { 'openapi/': 'the OpenAPI document, drawn from the routes and their schemas', 'mcp/': 'the MCP server: tools and resources that call the routes in-process' },
  { 'api/': 'the routes under /api: read the request, call the domain, answer' },
  { 'metrics/': 'Prometheus figures, read from the database and the bus', 'runner/': 'the remote runner process' },
  {
    'engine/': 'runs tasks: queue, processes, apps, output, remote runners',
    'integrations/': 'incoming webhooks: authenticate, match, extract, launch',
    'event-webhooks/': 'outgoing webhooks on project events',
    'ws/': 'live updates on /api/ws',
  },
  {
    'auth/': 'who calls: sessions, API tokens, LDAP, OIDC, TOTP, project scope',
    'alerts/': 'mail and chat messages about tasks, approvals and invitations',
    'audit-export/': 'the audit trail sent on to files, syslog and webhooks',
    'retention/': 'purging old tasks, audit rows and deliveries',
    'scheduler/': 'fires schedules when they are due',
    'workflows/': 'drives workflow runs as their tasks end',
  },
  { 'domain/': 'the model: projects and their resources, tasks, audit, backup; validation and rules' },
  { 'http/': 'the web vocabulary: errors, body validation, request context, compression' },
  { 'identity/': 'signing keys and task tokens', 'deps.ts': 'the shape of what every part is handed at start-up' },
  { 'crypto/': 'secrets at rest: the secret box and sealed values' },
  { 'config/': 'settings from config.json and SEMAPHORE_* variables' },
  {
    'access/': 'the role and permission table; password and token hashing',
    'events/': 'the event bus (and its PostgreSQL relay between servers)',
    'version.ts': 'the version string',
  },
  {
    'lib/': 'helpers that know nothing of Signalbox: time, cron, outgoing HTTP, client addresses',
    'db/': 'the schema, the connection and the migrations',
    'paths.ts': 'where the server finds its files',
    'system/': 'facts about the machine and the edition',
  },
];

/** src: the console on top of the runner API. */
const CONSOLE_FLOORS: Floor[] = [
  { 'pages/': 'Astro routes', 'middleware.ts': 'Astro middleware: language, compression', 'env.d.ts': 'Astro types' },
  { 'layouts/': 'screens and dialogs built from components' },
  { 'islands/': 'React islands: editors and live views' },
  { 'components/': 'shared server-rendered components' },
  { 'console/': 'the console\'s logic: runner API client, forms, i18n, screen models' },
  { 'server/': 'the runner API (its own map above)' },
];

/**
 * Arrows that still point up, each to be removed (then struck from here: the test fails
 * while a listed arrow no longer exists). Nothing may be added to these lists.
 */
const SERVER_UPWARD: Record<string, string> = {
  'deps.ts -> metrics/metrics.ts': 'a type only: the Deps bag names the Metrics class boot.ts builds',
  'events/pg-relay.ts -> domain/tasks/task-status.ts': 'the relay asks isFinished; the task status vocabulary belongs lower',
};
const CONSOLE_UPWARD: Record<string, string> = {
  'console/board-page.ts -> components/cell-markup.ts': 'board markup helpers belong in console/ or the board components',
  'console/board-tiles.ts -> components/status-icons.ts': 'status icons belong in console/',
  'console/board-live.ts -> islands/task-feed.ts': 'the task feed is shared state: it belongs in console/',
  'console/live-dashboard.ts -> islands/task-feed.ts': 'as above',
  'console/workflow-run-live.ts -> islands/task-feed.ts': 'as above',
};

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
const SERVER = join(SRC, 'server/');

/** Every source file under `dir`. */
function sourcesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|astro)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The files of this tree that `file` imports; `withTypes` counts `import type` too. */
function localImports(file: string, withTypes: boolean): string[] {
  const text = readFileSync(file, 'utf8');
  const statements = [...text.matchAll(/^\s*(?:import|export)\b(\s+type\b)?[^;'"(]*?(?:\bfrom\s*|import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm)]
    .filter((m) => withTypes || !m[1])
    .map((m) => m[2]!);
  const dynamic = [...text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return [...statements, ...dynamic].map((specifier) => resolve(dirname(file), specifier));
}

/** The room of a file: its top-level folder (`api/`) or, at the top, the file itself (`app.ts`). */
function roomOf(root: string, file: string): string {
  const path = relative(root, file);
  const slash = path.indexOf('/');
  return slash < 0 ? path : path.slice(0, slash + 1);
}

/** Imports (types included) between rooms of `root` that go sideways or up, as "from -> to". */
function arrowsAgainst(root: string, floors: Floor[], files: string[]): string[] {
  const floorOf = new Map(floors.flatMap((floor, index) => Object.keys(floor).map((room) => [room, floors.length - index] as const)));
  const found = new Set<string>();
  for (const file of files) {
    for (const target of localImports(file, true)) {
      if (!target.startsWith(root)) continue;
      const [from, to] = [roomOf(root, file), roomOf(root, target)];
      if (from === to) continue;
      if (floorOf.get(from)! <= floorOf.get(to)!) found.add(`${relative(root, file)} -> ${relative(root, target)}`);
    }
  }
  return [...found].sort();
}

/** Files that import each other, directly or round a loop (types included), one loop a line. */
function circles(files: string[]): string[] {
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file, localImports(file, true).filter((target) => known.has(target))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const target of edges.get(file)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (stack.includes(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const loop: string[] = [];
    let member: string;
    do loop.push(member = stack.pop()!); while (member !== file);
    if (loop.length > 1) found.push(loop.map((f) => relative(SRC, f)).sort().join(' <-> '));
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found;
}

describe('layers: the map of the house', () => {
  const serverFiles = sourcesIn(SERVER);
  const consoleFiles = sourcesIn(SRC).filter((file) => !file.startsWith(SERVER));

  it.each([
    ['src/server', SERVER, SERVER_FLOORS],
    ['src', SRC, CONSOLE_FLOORS],
  ] as const)('%s: every room stands on one floor of the map, and the map names no room that is gone', (_name, root, floors) => {
    const rooms = floors.flatMap((floor) => Object.keys(floor));
    const present = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || /\.(ts|tsx|astro)$/.test(entry.name))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
    expect(new Set(rooms).size).toBe(rooms.length);
    expect(present.filter((room) => !rooms.includes(room))).toEqual([]);
    expect(rooms.filter((room) => !existsSync(join(root, room)))).toEqual([]);
  });

  it('reads the imports it looks for', () => {
    const app = join(SERVER, 'app.ts');
    expect(localImports(app, true)).toContain(join(SERVER, 'api/audit-request.ts'));
    expect(localImports(join(SERVER, 'deps.ts'), true)).toContain(join(SERVER, 'metrics/metrics.ts'));
    expect(localImports(join(SERVER, 'deps.ts'), false)).not.toContain(join(SERVER, 'metrics/metrics.ts'));
    const page = consoleFiles.find((file) => file.endsWith('.astro') && localImports(file, true).some((target) => target.includes('/components/')));
    expect(page).toBeDefined();
  });

  it('src/server: every import points down the floors (but for the listed ones still to move)', () => {
    expect(arrowsAgainst(SERVER, SERVER_FLOORS, serverFiles)).toEqual(Object.keys(SERVER_UPWARD).sort());
  });

  it('src: every import between the console\'s rooms points down the floors (but for the listed ones still to move)', () => {
    expect(arrowsAgainst(SRC, CONSOLE_FLOORS, consoleFiles)).toEqual(Object.keys(CONSOLE_UPWARD).sort());
  });

  it('no files import each other, directly or round a loop, anywhere in src', () => {
    expect(circles([...serverFiles, ...consoleFiles])).toEqual([]);
  });
});
