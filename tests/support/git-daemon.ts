import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    }).on('error', reject);
  });
}

/**
 * `git daemon` serving `base`'s repositories on loopback; resolves once it accepts connections.
 * @example const daemon = await startGitDaemon(served); const url = `${daemon.url}/site.git`; ...; daemon.stop();
 */
export async function startGitDaemon(base: string): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const daemon: ChildProcess = spawn('git', ['daemon', '--verbose', '--reuseaddr', '--export-all', `--base-path=${base}`, '--listen=127.0.0.1', `--port=${port}`, base], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    daemon.stderr!.on('data', (chunk: Buffer) => { if (chunk.toString().includes('Ready to rumble')) resolve(); });
    daemon.on('exit', (code) => reject(new Error(`git daemon exited with ${code}`)));
  });
  return { url: `git://127.0.0.1:${port}`, stop: () => daemon.kill() };
}
