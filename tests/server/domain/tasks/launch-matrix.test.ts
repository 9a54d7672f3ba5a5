import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../../support/harness.ts';
import { START_PATHS, type StartPath } from '../../../../src/server/domain/tasks/launch/start-paths.ts';
import { LAUNCH_RULES } from '../../../../src/server/domain/tasks/launch/launch-rules.ts';
import { ROLE_REFUSAL } from '../../../../src/server/domain/tasks/launch/rules/caller-role.ts';
import { BUILD_VERSION_REQUIRED } from '../../../../src/server/domain/tasks/launch/rules/deploy-build.ts';
import type { TaskRow } from '../../../../src/server/db/schema.ts';
import {
  buildLaunchWorld, makeSubject, START_DRIVERS,
  type Ask, type Caller, type Carry, type StartDriver, type Subject, type TemplateSpec, type Verdict, type World,
} from '../../../support/launch-paths.ts';

/**
 * The launch matrix (issue 46): every way a task starts × every rule of starting one gives the
 * same verdict with the same text. Each case is tried on every path that can ask for what the
 * case asks (a bulk run carries no values, the launch dialog offers only what the template
 * allows, a trigger has no person whose role counts); the verdict is read where that path shows
 * it (an HTTP answer, a bulk result, the schedule's last_error, the delivery log, the build's
 * log, the workflow run). A new start path fails here until it has its row.
 */

const SRC = join(import.meta.dirname, '../../../../src');

/** The modules that call the launch function, and the start path each names. */
const CALLERS: Record<string, StartPath[]> = {
  // a start and a relaunch on failed hosts (a re-run with one rule of its own)
  'server/api/tasks.routes.ts': ['api', 'api'],
  'server/domain/templates/template-bulk.ts': ['bulk'],
  'server/scheduler/fire-schedule.ts': ['schedule'],
  'server/integrations/receive-delivery.ts': ['webhook'],
  'server/engine/queue/autorun-deploys.ts': ['autorun'],
  'server/domain/workflows/workflow-run.service.ts': ['workflow'],
};

function sources(): Map<string, string> {
  const files = readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|astro)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
  return new Map(files.map((file) => [relative(SRC, file), readFileSync(file, 'utf8')]));
}

describe('launch matrix: the start paths', () => {
  const all = sources();

  it('finds every call of the launch function, each naming a known start path, in the modules the matrix drives', () => {
    const found: Record<string, string[]> = {};
    for (const [file, text] of all) {
      if (file === 'server/domain/tasks/launch/launch-task.ts' || !/\blaunchTask\(/.test(text)) continue;
      const calls = text.split(/\blaunchTask\(/).slice(1);
      found[file] = calls.map((call) => /path:\s*'(\w+)'/.exec(call.slice(0, 400))?.[1] ?? '(none)');
    }
    expect(found).toEqual(CALLERS);
    for (const paths of Object.values(found)) for (const path of paths) expect(Object.keys(START_PATHS)).toContain(path);
  });

  it('has a row for every start path, and nothing but the launch function queues a task', () => {
    expect(Object.keys(START_DRIVERS).sort()).toEqual(Object.keys(START_PATHS).sort());
    for (const drivers of Object.values(START_DRIVERS)) expect(drivers.length).toBeGreaterThan(0);
    expect(new Set(Object.values(CALLERS).flat())).toEqual(new Set(Object.keys(START_PATHS)));
    const queuers = [...all].filter(([, text]) => /^import (?!type )[^;]*from '[./]*(?:tasks\/)?enqueue-task\.ts'/m.test(text)).map(([file]) => file);
    expect(queuers).toEqual(['server/domain/tasks/launch/launch-task.ts']);
    const inserters = [...all].filter(([, text]) => /insertInto\('task'\)/.test(text)).map(([file]) => file).sort();
    // the runner's private mirror of a job it was handed is not a start
    expect(inserters).toEqual(['server/domain/tasks/enqueue-task.ts', 'server/runner/mirror-deps.ts']);
  });
});

const REPLICAS = { name: 'replicas', title: 'Replicas', type: 'int', required: true };
const ZONE = { name: 'zone', title: 'Zone', type: 'enum', values: [{ name: 'EU', value: 'eu' }, { name: 'US', value: 'us' }] };

/** What a started task shows: the fields a case looks at, and its log (what was not applied). */
type Seen = { task: Partial<Record<'environment' | 'git_branch' | 'inventory_id' | 'arguments' | 'build_task_id' | 'limit' | 'environment_ids', unknown>>; log: string[] };

interface Case {
  key: string;
  /** the LAUNCH_RULES entry the case is about */
  rule: string;
  template?: TemplateSpec;
  ask?: Ask;
  as?: Caller;
  needs: Carry[];
  expect: { refusal: (s: Subject, w: World) => string } | { forbidden: true } | { started: (s: Subject, w: World) => Seen };
}

const notApplied = (field: string, value: string, what: string) => `${field} ${value} not applied: the template does not let a task choose its ${what}`;

const CASES: Case[] = [
  // a custom role without ViewTemplates is refused on every path: tests/server/api/template-visibility.test.ts
  { key: 'a template a task runner sees', rule: 'template visible', as: 'task_runner', needs: ['person'], expect: { started: () => ({ task: {}, log: [] }) } },
  // template grants (issue 52) on every path that acts for someone: the person, or the trigger's owner (who last saved it)
  {
    key: 'a template whose grants leave out the starter or the trigger\'s owner', rule: 'template visible', template: { grants: [{ role: 'manager', run: true }] },
    as: 'task_runner', needs: ['owned'], expect: { refusal: () => 'template_id: no such template in this project' },
  },
  {
    key: 'a template granted to the starter or the trigger\'s owner only to see', rule: 'template visible', template: { grants: [{ user: 'task_runner', run: false }] },
    as: 'task_runner', needs: ['owned'], expect: { refusal: () => 'template_id: no such template in this project' },
  },
  {
    key: 'a template granted to the starter\'s or the trigger owner\'s role to run', rule: 'template visible', template: { grants: [{ role: 'task_runner', run: true }] },
    as: 'task_runner', needs: ['owned'], expect: { started: () => ({ task: {}, log: [] }) },
  },
  {
    key: 'a template with grants, started by a trigger without an owner', rule: 'template visible', template: { grants: [{ role: 'task_runner', run: true }] },
    as: 'nobody', needs: ['trigger'], expect: { refusal: (s) => `Template "${s.name}" runs only for those it is granted to, and this trigger has no owner: it must be saved again by someone who may run the template` },
  },
  { key: 'a template without grants, started by a trigger without an owner', rule: 'template visible', as: 'nobody', needs: ['trigger'], expect: { started: () => ({ task: {}, log: [] }) } },
  {
    key: 'a template whose grants leave out a trigger owned by an admin', rule: 'template visible', template: { grants: [{ role: 'manager', run: true }] },
    needs: ['owned'], expect: { started: () => ({ task: {}, log: [] }) },
  },
  { key: 'disabled template', rule: 'template enabled', template: { disabled: true }, needs: [], expect: { refusal: (s) => `Template "${s.name}" is disabled` } },
  { key: 'a guest', rule: 'caller role', as: 'guest', needs: ['person'], expect: { forbidden: true } },
  { key: 'a task runner', rule: 'caller role', as: 'task_runner', needs: ['person'], expect: { started: () => ({ task: {}, log: [] }) } },
  { key: 'deploy without a build', rule: 'deploy build', template: { deploy: true }, needs: ['buildless'], expect: { refusal: () => BUILD_VERSION_REQUIRED } },
  {
    key: 'deploy of a failed build', rule: 'deploy build', template: { deploy: true }, ask: { build: 'failed' }, needs: ['build'],
    expect: { refusal: (s) => `build_task_id: task ${s.builds!.failed} is not a successful build of "${s.buildTemplateName}"` },
  },
  {
    key: 'deploy of a good build', rule: 'deploy build', template: { deploy: true }, ask: { build: 'good' }, needs: ['build'],
    expect: { started: (s) => ({ task: { build_task_id: s.builds!.good }, log: [] }) },
  },
  { key: 'required survey answer missing', rule: 'survey answers', template: { survey: [REPLICAS] }, needs: [], expect: { refusal: () => 'Replicas is required' } },
  {
    key: 'required survey answer from its default', rule: 'survey answers', template: { survey: [{ ...REPLICAS, default_value: '3' }] }, needs: [],
    expect: { started: () => ({ task: { environment: { replicas: '3' } }, log: [] }) },
  },
  { key: 'int default that is no integer', rule: 'survey answers', template: { survey: [{ ...REPLICAS, default_value: 'three' }] }, needs: [], expect: { refusal: () => 'Replicas must be an integer' } },
  { key: 'int answer that is no integer', rule: 'survey answers', template: { survey: [REPLICAS] }, ask: { vars: { replicas: 'abc' } }, needs: ['survey'], expect: { refusal: () => 'Replicas must be an integer' } },
  {
    key: 'int answer', rule: 'survey answers', template: { survey: [REPLICAS] }, ask: { vars: { replicas: '5' } }, needs: ['survey'],
    expect: { started: () => ({ task: { environment: { replicas: '5' } }, log: [] }) },
  },
  { key: 'enum answer not offered', rule: 'survey answers', template: { survey: [ZONE] }, ask: { vars: { zone: 'mars' } }, needs: ['survey'], expect: { refusal: () => 'Zone must be one of: eu, us' } },
  {
    key: 'a variable outside the survey from a task runner', rule: 'survey answers', template: { survey: [ZONE] }, ask: { vars: { zone: 'eu', extra: '1' } }, as: 'task_runner',
    needs: ['survey', 'stray', 'caller-values'], expect: { refusal: () => 'environment: "extra" is not a survey variable of this template' },
  },
  {
    key: 'a variable outside the survey from an editor or a configuration', rule: 'survey answers', template: { survey: [ZONE] }, ask: { vars: { zone: 'eu', extra: '1' } },
    needs: ['survey', 'stray'], expect: { started: () => ({ task: { environment: { zone: 'eu', extra: '1' } }, log: [] }) },
  },
  {
    key: 'branch the template does not offer', rule: 'template overrides', ask: { branch: 'feature/x' }, needs: ['branch', 'unallowed'],
    expect: { started: () => ({ task: { git_branch: null }, log: [notApplied('git_branch', '"feature/x"', 'branch')] }) },
  },
  {
    key: 'branch the template offers', rule: 'template overrides', template: { allow: { branch: true } }, ask: { branch: 'feature/x' }, needs: ['branch'],
    expect: { started: () => ({ task: { git_branch: 'feature/x' }, log: [] }) },
  },
  {
    key: 'limit the template does not offer', rule: 'template overrides', ask: { limit: 'web,db' }, needs: ['limit', 'unallowed'],
    expect: { started: () => ({ task: { limit: null }, log: [notApplied('limit', '"web,db"', 'limit')] }) },
  },
  {
    key: 'limit the template offers', rule: 'template overrides', template: { allow: { limit: true } }, ask: { limit: 'web,db' }, needs: ['limit'],
    expect: { started: () => ({ task: { limit: ['web', 'db'] }, log: [] }) },
  },
  {
    key: 'a limit that reads a file, from a task runner', rule: 'template overrides', template: { allow: { limit: true } }, ask: { limit: '@hosts.txt' }, as: 'task_runner',
    needs: ['limit', 'caller-values'], expect: { refusal: () => 'limit: a host pattern must not start with "@" (ansible reads it as a file on the server)' },
  },
  {
    key: 'inventory the template does not offer', rule: 'template overrides', ask: { inventory: true }, needs: ['inventory', 'unallowed'],
    expect: { started: (_s, w) => ({ task: { inventory_id: null }, log: [notApplied('inventory_id', String(w.inventoryId), 'inventory')] }) },
  },
  {
    key: 'inventory the template offers', rule: 'template overrides', template: { allow: { inventory: true } }, ask: { inventory: true }, needs: ['inventory'],
    expect: { started: (_s, w) => ({ task: { inventory_id: w.inventoryId }, log: [] }) },
  },
  {
    key: 'inventory outside the template\'s allowed inventories', rule: 'template overrides', template: { allow: { inventory: true }, allowedInventories: 'other' },
    ask: { inventory: true }, needs: ['inventory', 'unallowed'],
    expect: { refusal: (_s, w) => `inventory_id: inventory ${w.inventoryId} is not one of the inventories this template allows` },
  },
  {
    key: 'inventory among the template\'s allowed inventories', rule: 'template overrides', template: { allow: { inventory: true }, allowedInventories: 'asked' },
    ask: { inventory: true }, needs: ['inventory'],
    expect: { started: (_s, w) => ({ task: { inventory_id: w.inventoryId }, log: [] }) },
  },
  {
    key: 'variable groups the template does not offer', rule: 'template overrides', ask: { groups: true }, needs: ['groups', 'unallowed'],
    expect: { refusal: () => 'environment_ids: this template does not let a task choose its variable groups' },
  },
  {
    key: 'variable groups the template offers', rule: 'template overrides', template: { allow: { groups: true } }, ask: { groups: true }, needs: ['groups'],
    expect: { started: (_s, w) => ({ task: { environment_ids: [w.groupId] }, log: [] }) },
  },
  {
    key: 'arguments the template does not offer', rule: 'template overrides', ask: { arguments: ['-v'] }, needs: ['arguments', 'unallowed'],
    expect: { started: () => ({ task: { arguments: null }, log: [notApplied('arguments', JSON.stringify('["-v"]'), 'arguments')] }) },
  },
  {
    key: 'arguments the template offers', rule: 'template overrides', template: { allow: { arguments: true } }, ask: { arguments: ['-v'] }, needs: ['arguments'],
    expect: { started: () => ({ task: { arguments: '["-v"]' }, log: [] }) },
  },
  {
    key: 'arguments from a task runner', rule: 'template overrides', template: { allow: { arguments: true } }, ask: { arguments: ['-v'] }, as: 'task_runner',
    needs: ['arguments', 'caller-values'], expect: { refusal: () => 'arguments: only someone who may manage the project\'s resources may pass arguments' },
  },
  {
    key: 'a template at its limit that refuses more', rule: 'template concurrency', template: { busy: { limit: 1, policy: 'refuse' } }, needs: ['buildless'],
    expect: { refusal: (s) => `Template "${s.name}" runs at most 1 task at once: task ${s.busyTaskId} is queued` },
  },
  {
    key: 'a trigger past the template\'s rate limit', rule: 'template rate limit', template: { rateLimit: { starts: 1, window: '1h' } }, needs: ['trigger'],
    expect: { refusal: (s) => `Template "${s.name}" starts at most 1 task per 1h from schedules and webhooks; this start is skipped` },
  },
  {
    key: 'a trigger within the template\'s rate limit', rule: 'template rate limit', template: { rateLimit: { starts: 2, window: '1h' } }, needs: ['trigger'],
    expect: { started: () => ({ task: {}, log: [] }) },
  },
  {
    key: 'a template at its limit that queues more', rule: 'template concurrency', template: { busy: { limit: 1, policy: 'queue' } }, needs: ['buildless'],
    expect: { started: () => ({ task: {}, log: [] }) },
  },
];

/** What every path that can ask for it must show. */
function expected(c: Case, s: Subject, w: World): string {
  if ('refusal' in c.expect) return `refused: ${c.expect.refusal(s, w)}`;
  if ('forbidden' in c.expect) return 'refused for the role';
  return `started: ${JSON.stringify(c.expect.started(s, w))}`;
}

/** What the path showed, in the case's terms. */
function shown(c: Case, v: Verdict, s: Subject, w: World): string {
  if (v.forbidden) return v.refusal === '' ? 'refused for the role' : `403 with a body: ${v.refusal}`;
  // a path that records the reason (a workflow run) shows the rule's own words
  if (v.refusal === ROLE_REFUSAL && 'forbidden' in c.expect) return 'refused for the role';
  if (v.refusal !== null) return `refused: ${v.refusal}`;
  if (!('started' in c.expect)) return `started task ${v.task!.id}`;
  const want = c.expect.started(s, w);
  const view = seen(v.task!);
  const task = Object.fromEntries(Object.keys(want.task).map((k) => [k, view[k as keyof typeof view]]));
  return `started: ${JSON.stringify({ task, log: v.log })}`;
}

function seen(task: TaskRow) {
  const params = JSON.parse(task.params) as Record<string, unknown>;
  return {
    environment: JSON.parse(task.environment), git_branch: task.git_branch, inventory_id: task.inventory_id, arguments: task.arguments,
    build_task_id: task.build_task_id, limit: params.limit ?? null, environment_ids: JSON.parse(task.environment_ids ?? 'null'),
  };
}

const carries = (d: StartDriver, c: Case) => c.needs.every((need) => d.carries.includes(need)) && !(d.deployOnly && c.template?.deploy);
const DRIVERS = Object.values(START_DRIVERS).flat();

describe('launch matrix: the cases', () => {
  it('tries every rule, each on several paths, and every path on several cases', () => {
    expect(new Set(CASES.map((c) => c.rule))).toEqual(new Set(LAUNCH_RULES.map((r) => r.name)));
    for (const c of CASES) expect(DRIVERS.filter((d) => carries(d, c)).length, c.key).toBeGreaterThanOrEqual(2);
    for (const d of DRIVERS) expect(CASES.filter((c) => carries(d, c)).length, d.name).toBeGreaterThanOrEqual(4);
  });
});

for (const dialect of DIALECTS) {
  describe(`launch matrix (${dialect})`, () => {
    let s: TestServer;
    let w: World;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      w = await buildLaunchWorld(s);
    });
    afterAll(async () => { await s.close(); });

    for (const c of CASES) {
      it(`${c.key}: the same verdict on every path`, async () => {
        const rows: [string, string][] = [];
        const want: [string, string][] = [];
        for (const driver of DRIVERS.filter((d) => carries(d, c))) {
          const subject = await makeSubject(w, `${c.key} / ${driver.name}`, c.template ?? {}, driver.deployOnly);
          const before = await countTasks(w);
          const verdict = await driver.start(w, subject, c.ask ?? {}, c.as ?? 'admin');
          if (verdict.task === null) expect(await countTasks(w), `${driver.name} queued a task it refused`).toBe(before);
          rows.push([driver.name, shown(c, verdict, subject, w)]);
          want.push([driver.name, expected(c, subject, w)]);
        }
        expect(rows).toEqual(want);
      });
    }
  });
}

async function countTasks(w: World): Promise<number> {
  const row = await w.s.deps.db.selectFrom('task').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'waiting').executeTakeFirstOrThrow();
  return Number(row.n);
}
