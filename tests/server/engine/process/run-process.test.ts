import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { startProcess, STOP_GRACE_MS } from '../../../../src/server/engine/process/run-process.ts';

function collect() {
  const lines: string[] = [];
  return { lines, sink: { write: (line: string) => { lines.push(line); return true; }, drained: () => Promise.resolve() } };
}

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

describe('process runner', () => {
  it('reads stdout and stderr as lines and reports the exit code', async () => {
    const { lines, sink } = collect();
    const p = startProcess({ command: 'bash', args: ['-c', 'echo out; echo err >&2; exit 4'], cwd: tmpdir(), env }, sink);
    expect(await p.done).toEqual({ code: 4, signal: null });
    expect(lines.sort()).toEqual(['err', 'out']);
  });

  it('stops the whole process group, children included', async () => {
    const { lines, sink } = collect();
    const p = startProcess({ command: 'bash', args: ['-c', '(sleep 600; echo child survived) & echo started; wait'], cwd: tmpdir(), env }, sink);
    while (!lines.includes('started')) await new Promise((r) => setTimeout(r, 10));
    const asked = Date.now();
    p.kill(false);
    const result = await p.done;
    expect(result.signal ?? result.code).toBeTruthy();
    // SIGTERM ended it: no wait for the grace period's SIGKILL (how fast is not a test's to say)
    expect(Date.now() - asked).toBeLessThan(STOP_GRACE_MS);
    expect(lines).not.toContain('child survived');
  });

  it('pauses a fast producer while the sink is full and loses no line', async () => {
    const lines: string[] = [];
    let full = false;
    let release: () => void = () => {};
    const sink = {
      write: (line: string) => { lines.push(line); if (lines.length % 5000 === 0) full = true; return !full; },
      drained: () => new Promise<void>((r) => { release = () => { full = false; r(); }; setTimeout(release, 5); }),
    };
    const p = startProcess({ command: 'seq', args: ['1', '50000'], cwd: tmpdir(), env }, sink);
    expect((await p.done).code).toBe(0);
    expect(lines.length).toBe(50000);
    expect(lines.at(-1)).toBe('50000');
  });

  it('rejects when the command cannot start', async () => {
    const { sink } = collect();
    await expect(startProcess({ command: 'no-such-command-xyz', args: [], cwd: tmpdir(), env }, sink).done).rejects.toThrow(/cannot start no-such-command-xyz/);
  });
});
