import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpTestServer } from '../support/http-test-server.ts';
import { ADMIN, type Auth } from '../support/harness.ts';
import { registerCommand, registrationCommand } from '../../src/console/runners-screen.ts';

const ROOT = join(import.meta.dirname, '../..');

/**
 * Starts a command as the runner dialog prints it, with bash in a Signalbox checkout (this one),
 * as a person would paste it there: no `signalbox` on the PATH, a home of its own.
 */
function startAsPrinted(command: string, home: string) {
  const child = spawn('bash', ['-c', command], {
    cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: home, SEMAPHORE_TMP_PATH: join(home, 'work') },
  });
  let output = '';
  let exited = false;
  const seen: (() => void)[] = [];
  const take = (chunk: Buffer) => {
    output += chunk;
    for (const wake of seen.splice(0)) wake();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  child.once('exit', () => { exited = true; for (const wake of seen.splice(0)) wake(); });
  return {
    output: () => output,
    /** resolves once `text` is in the output; fails when the process ends first or after 120 s */
    async waitFor(text: string): Promise<void> {
      const deadline = Date.now() + 120_000;
      while (!output.includes(text)) {
        if (exited) throw new Error(`ended before "${text}"; output:\n${output}`);
        if (Date.now() > deadline) throw new Error(`"${text}" did not show within 120 s; output:\n${output}`);
        await new Promise<void>((resolve) => { seen.push(resolve); setTimeout(resolve, 1000); });
      }
    },
    stop: () => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ } },
  };
}

/** The runner dialog's commands run as printed on a machine where `npm start` installed Signalbox (issue 46). */
describe('the runner commands the console shows', () => {
  let server: Awaited<ReturnType<typeof startHttpTestServer>>;
  let admin: Auth;
  let home: string;
  beforeAll(async () => {
    server = await startHttpTestServer('sqlite', { SEMAPHORE_USE_REMOTE_RUNNER: 'true' });
    admin = await server.s.login(ADMIN.login, ADMIN.password);
    home = mkdtempSync(join(tmpdir(), 'signalbox-runner-home-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('starts a runner created in the console, its private key kept where only its owner reads it', async () => {
    const created = (await server.s.call('POST', '/api/runners', { name: 'edge-1' }, admin)).body;
    const command = registrationCommand(server.url, created);
    expect(command).not.toMatch(/^signalbox /m);
    const run = startAsPrinted(command, home);
    try {
      await run.waitFor(`runner started; polling ${server.url}`);
      expect(statSync(join(home, '.signalbox', `runner-${created.id}.key`)).mode & 0o777).toBe(0o600);
      // the server hears from it
      const touched = () => server.s.deps.db.selectFrom('runner').select('touched').where('id', '=', created.id).executeTakeFirstOrThrow();
      await expect.poll(async () => (await touched()).touched, { timeout: 60_000 }).not.toBeNull();
    } finally {
      run.stop();
    }
  }, 180_000);

  it('registers a runner created to register later, then starts it', async () => {
    const created = (await server.s.call('POST', '/api/runners', { name: 'later', registered: false }, admin)).body;
    const token = (await server.s.call('POST', `/api/runners/${created.id}/registration-token`, undefined, admin)).body.registration_token;
    const run = startAsPrinted(registerCommand(server.url, token), home);
    try {
      await run.waitFor('runner started');
      expect(run.output()).toContain('runner registered');
    } finally {
      run.stop();
    }
  }, 180_000);
});
