import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { insertTask } from '../../support/project-rows.ts';
import { keepCapturedFacts, prepareFactsCapture } from '../../../src/server/engine/run/facts-capture.ts';
import { hostFactsOf } from '../../../src/server/domain/tasks/host-facts.ts';

// The file the facts callback writes belongs to the task's identity: the server reads it as data.
describe('captured host facts (sqlite)', () => {
  let s: TestServer;
  let task: { id: number; project_id: number };
  let dir: string;

  beforeAll(async () => {
    s = await startTestServer('sqlite');
    const fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1, gitUrl: 'file:///nowhere' });
    const template = await insertTemplate(s.deps.db, fx.project.id, { name: 'Gather', app: 'ansible', playbook: 'site.yml' });
    task = await insertTask(s.deps.db, { projectId: fx.project.id, templateId: template.id, status: 'success' });
  });
  afterAll(async () => { await s.close(); });

  const capture = () => {
    dir = join(s.tmp, `task_${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    return prepareFactsCapture(dir);
  };

  it('stores only the four string facts of each host, each at most 255 characters, and nothing from a broken file', async () => {
    const c = capture();
    writeFileSync(c.file, JSON.stringify({
      web1: { distribution: 'Debian', distribution_version: '12.11', ipv4: '192.0.2.1', hostname: 'web1', password: 'hunter2' },
      web2: { distribution: 7, ipv4: 'x'.repeat(256) },
      ['h'.repeat(256)]: { distribution: 'Debian' },
    }));
    expect(await keepCapturedFacts(s.deps.db, task, c)).toBe(1);
    const facts = await hostFactsOf(s.deps.db, task.project_id);
    expect([...facts.keys()]).toEqual(['web1']);
    expect(facts.get('web1')).toEqual({ distribution: 'Debian', distribution_version: '12.11', ipv4: '192.0.2.1', hostname: 'web1', task_id: task.id, gathered: expect.any(String) });
    const broken = capture();
    writeFileSync(broken.file, '{"web1": {"distribution": "Fo');
    expect(await keepCapturedFacts(s.deps.db, task, broken)).toBe(0);
    expect(await keepCapturedFacts(s.deps.db, task, capture())).toBe(0);
  });

  it('keeps facts a narrower gathering did not report', async () => {
    const c = capture();
    writeFileSync(c.file, JSON.stringify({ web1: { ipv4: '192.0.2.99' } }));
    await keepCapturedFacts(s.deps.db, task, c);
    expect((await hostFactsOf(s.deps.db, task.project_id)).get('web1')).toMatchObject({ distribution: 'Debian', ipv4: '192.0.2.99' });
  });

  it('does not follow a link the task left in place of the file', async () => {
    const elsewhere = join(s.tmp, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify({ linked: { distribution: 'Linked' } }));
    const c = capture();
    symlinkSync(elsewhere, c.file);
    expect(await keepCapturedFacts(s.deps.db, task, c)).toBe(0);
    expect((await hostFactsOf(s.deps.db, task.project_id)).has('linked')).toBe(false);
  });
});
