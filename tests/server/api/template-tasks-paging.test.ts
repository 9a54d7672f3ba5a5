import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startWithFixtureProject, type FixtureProject } from '../../support/fixture-server.ts';
import type { Auth, TestServer } from '../../support/harness.ts';
import { insertTask } from '../../support/project-rows.ts';

// GET /templates/{id}/tasks?offset=&limit= (our addition for the template page's 20-a-page list).
for (const dialect of DIALECTS) {
  describe(`template task pages (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let f: FixtureProject;
    beforeAll(async () => {
      ({ s, admin, f } = await startWithFixtureProject(dialect));
    });
    afterAll(async () => { await s.close(); });

    it('answers one page newest first with the template task count in X-Total-Count, narrowed by status', async () => {
      const base = `/api/project/${f.project.id}/templates`;
      const tpl = (await s.call('POST', base, {
        name: 'Paged', app: 'ansible', playbook: 'site.yml', inventory_id: f.inventory.id, repository_id: f.repository.id, environment_id: f.environment.id,
      }, admin)).body;
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push((await insertTask(s.deps.db, { projectId: f.project.id, templateId: tpl.id, status: i === 2 ? 'error' : 'success', created: `2026-11-2${i}T10:00:00.000Z` })).id);
      }
      const newest = [...ids].reverse();
      const first = await s.call('GET', `${base}/${tpl.id}/tasks?offset=0&limit=2`, undefined, admin);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-total-count')).toBe('5');
      expect(first.body.map((t: { id: number }) => t.id)).toEqual(newest.slice(0, 2));
      const last = await s.call('GET', `${base}/${tpl.id}/tasks?offset=4&limit=2`, undefined, admin);
      expect(last.body.map((t: { id: number }) => t.id)).toEqual(newest.slice(4));
      const success = await s.call('GET', `${base}/${tpl.id}/tasks?offset=1&limit=2&status=success`, undefined, admin);
      expect(success.headers.get('x-total-count')).toBe('4');
      expect(success.body.map((t: { id: number }) => t.id)).toEqual([ids[3], ids[1]]);
      // without offset the list is Semaphore's: no count header
      const plain = await s.call('GET', `${base}/${tpl.id}/tasks?limit=20`, undefined, admin);
      expect(plain.headers.get('x-total-count')).toBeNull();
      expect(plain.body).toHaveLength(5);
    });
  });
}
