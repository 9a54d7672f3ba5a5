// Issue #34 item 2: a project with hundreds of templates is searched and paged on the server.
// `q` finds words in the name, description or playbook (case-insensitive, `%` and `_` taken
// literally); `limit` and the `after` cursor page the list in the same order as the whole list
// (`sort`, `order`), each template once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, ADMIN, type Auth, type TestServer } from '../../support/harness.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';

const COUNT = 130;
const nameOf = (i: number) => `${['Deploy', 'backup', 'Restore'][i % 3]} ${String(i).padStart(3, '0')}${i === 7 ? ' 100%_done' : ''}`;

for (const dialect of DIALECTS) {
  describe(`templates search and paging (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let pid = 0;

    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      const fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1, templateName: 'Seed 000' });
      pid = fx.project.id;
      const base = await s.deps.db.selectFrom('template').selectAll().where('id', '=', fx.template.id).executeTakeFirstOrThrow();
      const rows = Array.from({ length: COUNT }, (_, i) => {
        const { id: _id, ...rest } = base;
        return {
          ...rest, name: nameOf(i),
          description: i % 10 === 0 ? 'Nightly DATABASE dump' : '', playbook: i % 2 ? 'site.yml' : `roles/db-${i}.yml`,
          app: i % 4 === 0 ? 'bash' : 'ansible',
        };
      });
      await s.deps.db.insertInto('template').values(rows).execute();
    });
    afterAll(async () => { await s.close(); });

    const get = async (query: string) => {
      const res = await s.call('GET', `/api/project/${pid}/templates?${query}`, undefined, admin);
      return { status: res.status, body: res.body, names: Array.isArray(res.body) ? res.body.map((t: { name: string }) => t.name) as string[] : [], next: res.headers.get('x-next-cursor'), hasNext: res.headers.get('x-has-next') };
    };

    async function walk(query: string, limit: number): Promise<string[]> {
      const names: string[] = [];
      let page = await get(`${query}&limit=${limit}`);
      for (let guard = 0; guard < 200; guard++) {
        expect(page.status).toBe(200);
        names.push(...page.names);
        if (!page.next) { expect(page.hasNext).toBe('false'); break; }
        expect(page.hasNext).toBe('true');
        page = await get(`${query}&limit=${limit}&after=${page.next}`);
      }
      return names;
    }

    it('pages the whole list in the order of the unpaged list, for each sort and order', async () => {
      for (const query of ['sort=name', 'sort=name&order=desc', 'sort=playbook', 'sort=id&order=desc', 'sort=app&order=desc']) {
        const all = (await s.call('GET', `/api/project/${pid}/templates?${query}`, undefined, admin)).body.map((t: { name: string }) => t.name);
        expect(all).toHaveLength(COUNT + 1);
        expect(await walk(query, 17), query).toEqual(all);
      }
    });

    it('finds words in the name, description or playbook, case-insensitively, all words required', async () => {
      expect(await walk('q=BACKUP', 10)).toEqual(Array.from({ length: COUNT }, (_, i) => i).filter((i) => i % 3 === 1).map(nameOf));
      const dumps = await walk('q=database', 50);
      expect(dumps).toHaveLength(Math.ceil(COUNT / 10));
      const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      expect(await walk('q=db-12', 50)).toEqual([12, 120, 122, 124, 126, 128].map(nameOf).sort(byName));
      expect(await walk('q=restore nightly', 50)).toEqual([20, 50, 80, 110].map(nameOf));
      expect(await walk('q=100%25_done', 50)).toEqual(['backup 007 100%_done']);
      expect(await walk('q=%25', 50)).toEqual(['backup 007 100%_done']);
      expect(await walk('q=0_0', 50)).toEqual([]);
      expect(await walk("q=' OR 1=1 --", 50)).toEqual([]);
      expect(await walk('q=backup&app=bash', 50)).toEqual(Array.from({ length: COUNT }, (_, i) => i).filter((i) => i % 3 === 1 && i % 4 === 0).map(nameOf));
    });

    it('refuses a cursor it did not give, a bad sort and an overlong search with a 400', async () => {
      for (const [query, word] of [['after=bm90LWEtY3Vyc29y', 'after'], ['after=%E2%9C%93', 'after'], ['limit=5&sort=secret', 'sort'], [`q=${'x'.repeat(201)}`, 'q'], ['limit=0', 'limit']]) {
        const res = await get(query);
        expect(res.status, query).toBe(400);
        expect(res.body.error, query).toContain(word);
      }
      // a name cursor given to an id-sorted list is refused too
      const first = await get('sort=name&limit=2');
      expect((await get(`sort=id&limit=2&after=${first.next}`)).status).toBe(400);
    });
  });
}
