import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAnsibleCommand } from '../../../../src/server/engine/apps/ansible.ts';
import type { AppContext } from '../../../../src/server/engine/apps/app.ts';
import { SecretFiles } from '../../../../src/server/engine/run/secret-files.ts';
import type { KeySecret, TaskDetails } from '../../../../src/server/engine/run/task-details.ts';
import { loadConfig } from '../../../../src/server/config/config.ts';

const tmp = mkdtempSync(join(tmpdir(), 'ansible-args-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const key = (type: string, login: string, password: string): KeySecret => ({ id: 1, type, login, password, privateKey: '', passphrase: '', text: '' });

function context(): { ctx: AppContext; files: SecretFiles } {
  const config = { ...loadConfig({ SEMAPHORE_TMP_PATH: tmp }) };
  const files = new SecretFiles(join(tmp, 'secrets'));
  const details = {
    task: { id: 42, playbook: '', arguments: '["--forks=2"]', environment: '{}' },
    template: {
      playbook: 'site.yml', arguments: '["--timeout=5"]', allow_override_args_in_task: 1, working_directory: null, survey_vars: '[]',
    },
    inventory: { id: 3, name: 'inv', type: 'static', inventory: 'web1 ansible_host=10.0.0.1' },
    inventoryKey: key('login_password', 'deploy', 'ssh-pass-1'),
    becomeKey: key('login_password', 'root', 'sudo-pass-1'),
    hostKeys: [],
    vaults: [{ name: 'default', type: 'password', password: 'vault-pass-1', script: '' }, { name: 'prod', type: 'script', password: '', script: 'vault-client.py' }],
  } as unknown as TaskDetails;
  const ctx = {
    config, details, repoDir: '/repo', inventoryRepoDir: null, taskDir: tmp, serverEnv: process.env,
    params: { debug: true, debug_level: 2, diff: true, dry_run: true, limit: ['web1'], tags: ['deploy'] },
    templateParams: { skip_tags: ['slow'] },
    vars: {
      extraVars: { region: 'eu', release: '{{ x }}', semaphore_vars: { task_details: { id: 42, message: '{{ y }}' } } },
      secretVars: { api_token: 'survey-secret-1' }, envVars: {}, untrusted: new Set(['release', 'api_token']),
    },
    files, appPath: null, appArgs: [], log: () => {}, exec: async () => {}, setStatus: async () => true, beginStage: () => {}, waitForDecision: async () => 'confirmed' as const, stateBackendEnv: async () => ({}),
  } satisfies AppContext;
  return { ctx, files };
}

describe('ansible-playbook command line', () => {
  it('puts the arguments in Semaphore order with the playbook last', () => {
    const { ctx } = context();
    const { args } = buildAnsibleCommand(ctx, {});
    const at = (prefix: string) => args.findIndex((a) => a.startsWith(prefix));
    expect(args[0]).toBe('-i');
    expect(args[1]).toBe(join(tmp, 'inventory_42'));
    expect(args.slice(2, 6)).toEqual(['--user', 'deploy', '--become-user', 'root']);
    expect(args[6]).toBe('-vv');
    expect(args.slice(7, 9)).toEqual(['--diff', '--check']);
    expect(args[9]).toMatch(/^--vault-id=default@\//);
    expect(args[10]).toBe('--vault-id=prod@/repo/vault-client.py');
    expect(args[11]).toBe('--extra-vars');
    expect(args[12]).toBe(`@${join(tmp, 'extra_vars.json')}`);
    expect(args[13]).toBe('--extra-vars');
    expect(args[14]).toMatch(/^@\//);
    expect(at('--timeout=5')).toBeLessThan(at('--limit=web1'));
    expect(args.slice(-7)).toEqual(['--timeout=5', '--limit=web1', '--tags=deploy', '--skip-tags=slow', '--forks=2', '--', 'site.yml']);
  });

  it('passes extra vars in a file in the task directory, untrusted values and semaphore_vars marked unsafe', () => {
    const { ctx, files } = context();
    const { args } = buildAnsibleCommand(ctx, {});
    const varsFile = join(tmp, 'extra_vars.json');
    expect(JSON.parse(readFileSync(varsFile, 'utf8'))).toEqual({
      region: 'eu', release: { __ansible_unsafe: '{{ x }}' },
      semaphore_vars: { task_details: { id: 42, message: { __ansible_unsafe: '{{ y }}' } } },
    });
    expect(JSON.parse(readFileSync(args[14]!.slice(1), 'utf8')).api_token).toEqual({ __ansible_unsafe: 'survey-secret-1' });
    expect(statSync(varsFile).mode & 0o777).toBe(0o600);
    files.removeAll();
    expect(existsSync(varsFile)).toBe(false);
  });

  it('keeps every password off the command line, in 0600 files removed after the run', () => {
    const { ctx, files } = context();
    const { args } = buildAnsibleCommand(ctx, {});
    const joined = args.join(' ');
    for (const secret of ['ssh-pass-1', 'sudo-pass-1', 'vault-pass-1', 'survey-secret-1']) expect(joined).not.toContain(secret);
    const secretFile = args[14]!.slice(1);
    expect(JSON.parse(readFileSync(secretFile, 'utf8'))).toEqual({ api_token: { __ansible_unsafe: 'survey-secret-1' }, ansible_password: 'ssh-pass-1', ansible_become_password: 'sudo-pass-1' });
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    const vaultFile = args[9]!.split('@')[1]!;
    expect(readFileSync(vaultFile, 'utf8')).toBe('vault-pass-1');
    expect(statSync(join(tmp, 'inventory_42')).mode & 0o777).toBe(0o600);
    files.removeAll();
    expect([secretFile, vaultFile, join(tmp, 'inventory_42')].some(existsSync)).toBe(false);
  });
});
