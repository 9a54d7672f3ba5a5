import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import type { Config } from '../config/config.ts';

/**
 * `signalbox runner register|start|unregister` with Semaphore's runner flags and variables:
 * SEMAPHORE_RUNNER_API_URL, SEMAPHORE_RUNNER_REGISTRATION_TOKEN (or --stdin-registration-token),
 * SEMAPHORE_RUNNER_TOKEN_FILE (or SEMAPHORE_RUNNER_TOKEN), SEMAPHORE_RUNNER_NAME, _TAGS, _PROJECT_ID,
 * _MAX_PARALLEL_TASKS, _WEBHOOK, _ONE_OFF; SEMAPHORE_RUNNER_PRIVATE_KEY_FILE (default: the token
 * file + `.key`). Work directories live under the runner's own SEMAPHORE_TMP_PATH.
 */
export async function runRunnerCommand(config: Config, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [sub, ...rest] = args;
  const flags = parseFlags(rest);
  const setting = (flag: string, name: string, fallback = '') => flags[flag] ?? env[`SEMAPHORE_RUNNER_${name}`] ?? fallback;
  const apiUrl = setting('api-url', 'API_URL').replace(/\/+$/, '').replace(/\/api$/, '');
  const tokenFile = setting('token-file', 'TOKEN_FILE', join(config.tmp_path, 'runner.token'));
  const keyFile = setting('private-key-file', 'PRIVATE_KEY_FILE', `${tokenFile}.key`);
  if (!apiUrl) {
    console.error('signalbox runner: set SEMAPHORE_RUNNER_API_URL (or --api-url) to the server address');
    return 2;
  }
  switch (sub) {
    case 'register': {
      const registration = flags['stdin-registration-token'] === 'true' ? readFileSync(0, 'utf8').trim() : setting('registration-token', 'REGISTRATION_TOKEN');
      if (!registration) {
        console.error('signalbox runner register: set SEMAPHORE_RUNNER_REGISTRATION_TOKEN or pass --stdin-registration-token');
        return 2;
      }
      const { publicKey, privateKey } = generateKeyPairSync('x25519');
      const tags = setting('tags', 'TAGS').split(',').map((t) => t.trim()).filter(Boolean);
      const project = setting('project', 'PROJECT_ID');
      const body = {
        registration_token: registration, public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        ...(setting('name', 'NAME') ? { name: setting('name', 'NAME') } : {}),
        ...(setting('webhook', 'WEBHOOK') ? { webhook: setting('webhook', 'WEBHOOK') } : {}),
        ...(setting('max-parallel-tasks', 'MAX_PARALLEL_TASKS') ? { max_parallel_tasks: Number(setting('max-parallel-tasks', 'MAX_PARALLEL_TASKS')) } : {}),
        ...(tags.length ? { tags } : {}),
        ...(project ? { project_id: Number(project) } : {}),
      };
      const res = await fetch(`${apiUrl}/api/internal/runners`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const answer = (await res.json().catch(() => ({}))) as { token?: string; error?: string };
      if (!res.ok || !answer.token) {
        console.error(`signalbox runner register: ${answer.error ?? `the server answered ${res.status}`}`);
        return 1;
      }
      writeSecret(tokenFile, answer.token);
      writeSecret(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
      console.log(`runner registered; token written to ${tokenFile}`);
      return 0;
    }
    case 'start': {
      const token = env.SEMAPHORE_RUNNER_TOKEN || (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : '');
      const privateKey = env.SEMAPHORE_RUNNER_PRIVATE_KEY || (existsSync(keyFile) ? readFileSync(keyFile, 'utf8') : '');
      if (!token || !privateKey) {
        console.error(`signalbox runner start: no token or private key (${tokenFile}, ${keyFile}); run "signalbox runner register" first`);
        return 2;
      }
      const { RunnerProcess } = await import('../runner/runner-process.ts');
      const runner = new RunnerProcess(config, { apiUrl, token, privateKey, oneOff: /^(1|true|yes)$/i.test(setting('one-off', 'ONE_OFF')) });
      const stop = () => runner.stop();
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      console.log(`runner started; polling ${apiUrl}`);
      await runner.run();
      return 0;
    }
    case 'unregister': {
      const token = env.SEMAPHORE_RUNNER_TOKEN || (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : '');
      if (!token) {
        console.error('signalbox runner unregister: no token');
        return 2;
      }
      const res = await fetch(`${apiUrl}/api/internal/runners`, { method: 'DELETE', headers: { 'x-runner-token': token } });
      await res.body?.cancel();
      if (!res.ok && res.status !== 404) {
        console.error(`signalbox runner unregister: the server answered ${res.status}`);
        return 1;
      }
      rmSync(tokenFile, { force: true });
      rmSync(keyFile, { force: true });
      console.log('runner unregistered');
      return 0;
    }
    default:
      console.error('usage: signalbox runner register|start|unregister [--api-url URL] [--token-file F] [--stdin-registration-token] [--name N] [--tags a,b] [--project ID] [--max-parallel-tasks N] [--webhook URL] [--one-off]');
      return 2;
  }
}

function parseFlags(args: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(args[i]!);
    if (!m) continue;
    if (m[2] !== undefined) flags[m[1]!] = m[2];
    else if (['stdin-registration-token', 'one-off'].includes(m[1]!)) flags[m[1]!] = 'true';
    else flags[m[1]!] = args[++i] ?? '';
  }
  return flags;
}

function writeSecret(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, content, { mode: 0o600 });
  chmodSync(path, 0o600);
}
