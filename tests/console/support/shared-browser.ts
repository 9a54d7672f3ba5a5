import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { chromium, type LaunchOptions } from 'playwright-core';

/**
 * Debian's headless shell (`chromium-headless-shell`, the browser Playwright itself runs for
 * headless tests) when it is installed, else Debian's full Chromium. The full browser in headless
 * mode keeps its windowing and UI processes, and Debian's wrapper turns on GPU rasterisation,
 * which without a GPU is emulated in software: in a full run its browser and GPU processes spent
 * over a third of the machine's CPU (tests/README.md).
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/** Debian's Chromium, headless, without background traffic. */
export const CHROMIUM: LaunchOptions = {
  executablePath: existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run'],
};

export interface SharedBrowser {
  wsEndpoint: string;
  close: () => Promise<void>;
}

/**
 * Starts the run's one Chromium (global-setup.ts) in a process of its own: launching costs a
 * second or more of a loaded machine's time, so test files connect to it instead, each with its
 * own contexts (cookies, storage), closed when the file disconnects. Its own process, not vitest's:
 * every message between the files and Chromium passes through playwright's server, which must not
 * wait behind vitest's work of transforming and reporting.
 */
export async function startSharedBrowser(): Promise<SharedBrowser> {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, 'serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the shared Chromium did not start (exit ${code})`)));
  });
  return { wsEndpoint: firstLine.trim(), close: () => stop(child) };
}

/** Closing its stdin asks the server to close Chromium and exit; waits until it has. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin!.end();
  return exited;
}

/** The server process: prints the endpoint, then closes Chromium when its stdin ends. */
async function serve(): Promise<void> {
  const server = await chromium.launchServer(CHROMIUM);
  process.stdout.write(`${server.wsEndpoint()}\n`);
  process.stdin.resume();
  process.stdin.once('end', () => void server.close().then(() => process.exit(0)));
}

if (process.argv[2] === 'serve' && process.argv[1] === new URL(import.meta.url).pathname) await serve();
