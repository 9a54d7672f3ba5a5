import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** everything the process printed so far */
  output: () => string;
}

/**
 * Starts `signalbox server` as its own process on a free-ish port and resolves once it says it
 * is listening.
 * @example const { child, port } = await startServerProcess({ SEMAPHORE_DB_HOST: join(dir, 'db.sqlite') });
 */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, ['src/server/cli/main.ts', 'server'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SEMAPHORE_PORT: `:${port}`, SEMAPHORE_INTERFACE: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d;
      if (output.includes('listening on')) resolve({ child, port, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

/** Resolves with the exit code when the child exits. */
export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * Sends bytes exactly as given (no URL normalisation, as an attacker's client would) and
 * resolves with the status code of the answer, or 0 when the connection closed without one.
 * @example await sendRaw(port, 'GET /% HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n') // 400
 */
export function sendRaw(port: number, request: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (d) => { answer += d; });
    socket.on('error', () => {});
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
  });
}
