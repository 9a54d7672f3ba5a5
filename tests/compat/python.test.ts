import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DIALECTS } from '../support/dialects.ts';
import { ADMIN, run, startCompatServer, type CompatServer } from './support/compat-server.ts';

const CLIENT = fileURLToPath(new URL('./clients/python_client.py', import.meta.url));
/** Debian's interpreter, where `python3-requests` installs `requests`; another `python3` elsewhere. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/**
 * What every step of python_client.py must answer, whichever library sends it: the same
 * session a script writer runs (token with a bodyless POST, project by bearer, a body the
 * library labels as a form read as JSON when it is JSON, bodyless DELETE, logout that really ends the cookie).
 */
function expectedSteps(library: string) {
  return [
    ['login', 204, null],
    ['user', 200, expect.objectContaining({ username: ADMIN.login, admin: true })],
    ['token', 201, expect.objectContaining({ id: expect.any(String), expired: false })],
    ['project', 201, expect.objectContaining({ id: expect.any(Number), name: `${library} project` })],
    library === 'urllib'
      ? ['form body', 201, expect.objectContaining({ name: 'urllib unlabelled' })]
      : ['form body', 400, { error: 'body: not valid JSON' }],
    ['delete project', 204, null],
    ['deleted project', 404, null],
    ['logout', 204, null],
    ['user after logout', 401, null],
    ['old cookie after logout', 401, null],
    ['bearer still works', 200, expect.objectContaining({ username: ADMIN.login })],
  ];
}

for (const dialect of DIALECTS) {
  describe(`Python clients (${dialect})`, () => {
    let server: CompatServer;
    beforeAll(async () => { server = await startCompatServer(dialect); });
    afterAll(async () => { await server?.close(); });

    for (const library of ['urllib', 'requests']) {
      it(`${library}: signs in, makes a token with a bodyless POST, creates and deletes a project by bearer, signs out`, async () => {
        const { code, stdout, stderr } = await run(PYTHON, [CLIENT, library, server.url, ADMIN.login, ADMIN.password]);
        expect(stderr).toBe('');
        expect(code).toBe(0);
        const steps = stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown[]);
        expect(steps).toEqual(expectedSteps(library));
        const names = (await server.s.deps.db.selectFrom('project').select('name').execute()).map((p) => p.name);
        // the project it deleted is gone; urllib's form-labelled JSON made one more, as Semaphore would
        expect(names.filter((name) => name.startsWith(library))).toEqual(library === 'urllib' ? ['urllib unlabelled'] : []);
      });
    }
  });
}
