import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, ADMIN, type Auth, type TestServer } from '../../support/harness.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { insertTask } from '../../support/project-rows.ts';
import { insertOutputLines } from '../../../src/server/engine/output/insert-output.ts';

for (const dialect of DIALECTS) {
  describe(`task log search and download (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let base: string;
    let otherBase: string;

    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      const fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1, templateName: 'Deploy web' });
      const newTask = async () => (await insertTask(s.deps.db, { projectId: fx.project.id, templateId: fx.template.id, status: 'success', userId: 1 })).id;
      const task = await newTask();
      const other = await newTask();
      base = `/api/project/${fx.project.id}/tasks/${task}`;
      otherBase = `/api/project/${fx.project.id}/tasks/${other}`;
      const time = '2026-11-23T10:00:00.000Z';
      // Two tasks writing at once: their rows interleave, so ids are no line numbers.
      for (let i = 1; i <= 300; i++) {
        const output = i === 150 ? '\x1b[0;31mfatal: [web1]: FAILED! => 100% broken_pipe\x1b[0m'
          : i % 50 === 0 ? `ok: [WEB${i}] password ********` : `line ${i}`;
        await insertOutputLines(s.deps.db, task, [{ time, output }]);
        await insertOutputLines(s.deps.db, other, [{ time, output: `fatal other ${i}` }]);
      }
    });
    afterAll(async () => { await s.close(); });

    it('finds matching lines anywhere in the log with their line numbers, case-insensitive, ANSI stripped', async () => {
      const res = await s.call('GET', `${base}/output/search?q=${encodeURIComponent('ok: [web')}`, undefined, admin);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        matches: [50, 100, 200, 250, 300].map((line) => ({ line, time: '2026-11-23T10:00:00.000Z', output: `ok: [WEB${line}] password ********` })),
        more: false,
      });
      const fatal = await s.call('GET', `${base}/output/search?q=FATAL`, undefined, admin);
      expect(fatal.body.matches).toEqual([{ line: 150, time: '2026-11-23T10:00:00.000Z', output: 'fatal: [web1]: FAILED! => 100% broken_pipe' }]);
    });

    it('takes the query as plain text: % and _ are no wildcards', async () => {
      const percent = await s.call('GET', `${base}/output/search?q=${encodeURIComponent('100%')}`, undefined, admin);
      expect(percent.body.matches.map((m: { line: number }) => m.line)).toEqual([150]);
      const underscore = await s.call('GET', `${base}/output/search?q=${encodeURIComponent('line_1')}`, undefined, admin);
      expect(underscore.body.matches).toEqual([]);
      const wildcard = await s.call('GET', `${base}/output/search?q=${encodeURIComponent('%')}`, undefined, admin);
      expect(wildcard.body.matches.map((m: { line: number }) => m.line)).toEqual([150]);
    });

    it('numbers lines across batches of any size, a batch split over several statements included', async () => {
      const fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1, templateName: 'Batches' });
      const task = (await insertTask(s.deps.db, { projectId: fx.project.id, templateId: fx.template.id, status: 'success', userId: 1 })).id;
      const wide = 'w'.repeat(1000);
      const batches = [
        Array.from({ length: 3 }, (_, i) => `start ${i + 1}`),
        // ~100,000 characters of one timestamp: more than one insert statement
        Array.from({ length: 100 }, (_, i) => (i === 99 ? 'Needle_in_the_wide_part' : `${wide} ${i + 4}`)),
        Array.from({ length: 2 }, (_, i) => (i === 1 ? 'needle_at_the_end 50%' : `end ${i + 104}`)),
      ];
      for (const [b, outputs] of batches.entries()) {
        await insertOutputLines(s.deps.db, task, outputs.map((output) => ({ time: `2026-11-23T10:00:0${b}.000Z`, output })));
      }
      const path = `/api/project/${fx.project.id}/tasks/${task}/output/search`;
      const needles = await s.call('GET', `${path}?q=NEEDLE_`, undefined, admin);
      expect(needles.body.matches.map((m: { line: number; output: string }) => [m.line, m.output]))
        .toEqual([[103, 'Needle_in_the_wide_part'], [105, 'needle_at_the_end 50%']]);
      const percent = await s.call('GET', `${path}?q=${encodeURIComponent('d 50%')}`, undefined, admin);
      expect(percent.body.matches.map((m: { line: number }) => m.line)).toEqual([105]);
      expect((await s.call('GET', `${path}?q=start%203`, undefined, admin)).body.matches.map((m: { line: number }) => m.line)).toEqual([3]);
      expect((await s.call('GET', `${path}?q=W%2098`, undefined, admin)).body.matches.map((m: { line: number }) => m.line)).toEqual([98]);
    });

    it('searches a log of several thousand-line blocks written in batches of every size, other tasks interleaved, the rows after the last block too', async () => {
      const fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1, templateName: 'Blocks' });
      const newTask = async () => (await insertTask(s.deps.db, { projectId: fx.project.id, templateId: fx.template.id, status: 'success', userId: 1 })).id;
      const task = await newTask();
      const neighbour = await newTask();
      const text = (n: number) => (n === 7 || n === 1999 || n === 2000 || n === 3456 ? `Step ${n}: TARGET Reached` : `step ${n} done`);
      const sizes = [1, 5, 994, 1200, 3, 797, 1000, 500];
      let n = 0;
      for (const size of sizes) {
        await insertOutputLines(s.deps.db, task, Array.from({ length: size }, () => ({ time: '2026-11-23T11:00:00.000Z', output: text(++n) })));
        await insertOutputLines(s.deps.db, neighbour, [{ time: '2026-11-23T11:00:00.000Z', output: `target of the neighbour ${n}` }]);
      }
      expect(n).toBe(4500);
      const blocks = await s.deps.db.selectFrom('task_output_block').select('task_id').where('task_id', '=', task).execute();
      expect(blocks).toHaveLength(4);
      const path = `/api/project/${fx.project.id}/tasks/${task}/output/search`;
      const found = await s.call('GET', `${path}?q=target%20REACHED`, undefined, admin);
      expect(found.body).toEqual({
        matches: [7, 1999, 2000, 3456].map((line) => ({ line, time: '2026-11-23T11:00:00.000Z', output: `Step ${line}: TARGET Reached` })),
        more: false,
      });
      // the last 500 rows are in no block yet
      expect((await s.call('GET', `${path}?q=step%204321%20`, undefined, admin)).body.matches.map((m: { line: number }) => m.line)).toEqual([4321]);
      const three = await s.call('GET', `${path}?q=target&limit=3`, undefined, admin);
      expect(three.body.matches.map((m: { line: number }) => m.line)).toEqual([7, 1999, 2000]);
      expect(three.body.more).toBe(true);
      const many = await s.call('GET', `${path}?q=STEP&limit=1000`, undefined, admin);
      expect(many.body.matches).toHaveLength(1000);
      expect(many.body.matches.at(-1).line).toBe(1000);
      expect(many.body.more).toBe(true);
      expect((await s.call('GET', `${path}?q=${encodeURIComponent('done\nstep')}`, undefined, admin)).body.matches).toEqual([]);
    });

    it('answers at most ?limit= matches and says when there are more', async () => {
      const res = await s.call('GET', `${base}/output/search?q=line&limit=3`, undefined, admin);
      expect(res.body.matches.map((m: { line: number }) => m.line)).toEqual([1, 2, 3]);
      expect(res.body.more).toBe(true);
      const all = await s.call('GET', `${base}/output/search?q=line%202&limit=1000`, undefined, admin);
      // line 2, 20-29, 200-299 minus the ok: lines (200, 250) = 1 + 10 + 98
      expect(all.body.matches).toHaveLength(109);
      expect(all.body.matches.at(-1).line).toBe(299);
      expect(all.body.more).toBe(false);
    });

    it('refuses a missing or overlong query', async () => {
      expect((await s.call('GET', `${base}/output/search`, undefined, admin)).body).toEqual({ error: 'q: required' });
      expect((await s.call('GET', `${base}/output/search?q=%20`, undefined, admin)).status).toBe(400);
      const long = await s.call('GET', `${base}/output/search?q=${'x'.repeat(201)}`, undefined, admin);
      expect(long.status).toBe(400);
      expect(long.body.error).toBe('q: at most 200 characters');
    });

    it('downloads the whole log as a text file without ANSI codes', async () => {
      const res = await s.call('GET', `${base}/output/download`, undefined, admin);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="task-\d+\.log"$/);
      const lines = res.text.split('\n');
      expect(lines).toHaveLength(301);
      expect(lines[0]).toBe('line 1');
      expect(lines[149]).toBe('fatal: [web1]: FAILED! => 100% broken_pipe');
      expect(lines[299]).toBe('ok: [WEB300] password ********');
      expect(res.text).not.toContain('other');
      const other = await s.call('GET', `${otherBase}/output/download`, undefined, admin);
      expect(other.text.split('\n')[0]).toBe('fatal other 1');
    });

    it('answers 404 for a task of no project route', async () => {
      expect((await s.call('GET', `${base.replace(/\d+$/, '999999')}/output/search?q=x`, undefined, admin)).status).toBe(404);
      expect((await s.call('GET', `${base.replace(/\d+$/, '999999')}/output/download`, undefined, admin)).status).toBe(404);
    });
  });
}
