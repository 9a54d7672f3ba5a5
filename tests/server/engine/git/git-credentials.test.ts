import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitCredentialEnv, gitUrlWithLogin } from '../../../../src/server/engine/git/git-credentials.ts';
import { SecretFiles } from '../../../../src/server/engine/run/secret-files.ts';
import type { KeySecret } from '../../../../src/server/engine/run/task-details.ts';

const tmp = mkdtempSync(join(tmpdir(), 'git-cred-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const key = (fields: Partial<KeySecret>): KeySecret => ({ id: 1, type: 'none', login: '', password: '', privateKey: '', passphrase: '', text: '', ...fields });

describe('git credentials', () => {
  it('answers HTTPS prompts through GIT_ASKPASS from the environment, never from the URL', () => {
    const files = new SecretFiles(join(tmp, 'a'));
    const env = gitCredentialEnv(key({ type: 'login_password', login: 'robot', password: 'p@ss word' }), files);
    expect(env.GIT_TERMINAL_PROMPT).toBe('0');
    const ask = (prompt: string) => execFileSync(env.GIT_ASKPASS!, [prompt], { env: { ...env, PATH: process.env.PATH } }).toString();
    expect(ask("Username for 'https://git.example': ")).toBe('robot\n');
    expect(ask("Password for 'https://robot@git.example': ")).toBe('p@ss word\n');
    expect(readFileSync(env.GIT_ASKPASS!, 'utf8')).not.toContain('p@ss word');
    expect(gitUrlWithLogin('https://git.example/r.git', key({ type: 'login_password', login: 'robot', password: 'x' }))).toBe('https://robot@git.example/r.git');
    files.removeAll();
  });

  it('writes an ssh key to a 0600 file used by GIT_SSH_COMMAND and removes it afterwards', () => {
    const files = new SecretFiles(join(tmp, 'b'));
    const env = gitCredentialEnv(key({ type: 'ssh', privateKey: 'PRIVATE KEY TEXT' }), files);
    const keyFile = /-i '([^']+)'/.exec(env.GIT_SSH_COMMAND!)![1]!;
    expect(readFileSync(keyFile, 'utf8')).toBe('PRIVATE KEY TEXT\n');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(env.GIT_SSH_COMMAND).toMatch(/StrictHostKeyChecking=no/);
    files.removeAll();
    expect(() => statSync(keyFile)).toThrow();
  });
});
