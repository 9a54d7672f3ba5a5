import { execFile } from 'node:child_process';

// generous: on a busy small machine ansible's Python start alone can take seconds
const DETECT_TIMEOUT_MS = 20_000;
let cached: Promise<string> | undefined;

/**
 * The first line of `ansible --version` (e.g. `ansible [core 2.16.3]`), or "" when ansible is
 * not installed. Detected once per process: `/api/info` must not spawn a process per request.
 * @example const ansible = await detectAnsibleVersion();
 */
export function detectAnsibleVersion(): Promise<string> {
  cached ??= new Promise((resolve) => {
    execFile('ansible', ['--version'], { timeout: DETECT_TIMEOUT_MS, env: { ...process.env, ANSIBLE_NOCOLOR: '1' } }, (err, stdout) => {
      // only "not installed" is an answer to keep: a timeout or a crash is asked again next time
      if (err && (err as NodeJS.ErrnoException).code !== 'ENOENT') cached = undefined;
      resolve(err ? '' : (stdout.split('\n')[0] ?? '').trim());
    });
  });
  return cached;
}
