import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { launchFor } from '../../../../src/server/engine/process/launch.ts';
import { startProcess } from '../../../../src/server/engine/process/run-process.ts';

const env = { PATH: '/usr/bin:/bin' };
const hasSetpriv = existsSync('/usr/bin/setpriv') || existsSync('/bin/setpriv');

describe('how a task command is launched', () => {
  it.runIf(hasSetpriv)('wraps the resolved command in setpriv --pdeathsig KILL, the words after --', () => {
    const launch = launchFor('bash', ['run.sh', '--flag'], tmpdir(), env, { uid: 1234, gid: 4321, chroot: '' });
    expect(launch.command).toMatch(/\/setpriv$/);
    expect(launch.args.slice(0, 3)).toEqual(['--pdeathsig', 'KILL', '--']);
    expect(launch.args[3]).toMatch(/^\/(usr\/)?bin\/bash$/);
    expect(launch.args.slice(4)).toEqual(['run.sh', '--flag']);
    expect(launch).toMatchObject({ uid: 1234, gid: 4321 });
  });

  it.runIf(hasSetpriv)('gives a pool user PID and mount namespaces of its own, started as root, the ids dropped inside', () => {
    const launch = launchFor('bash', ['run.sh'], tmpdir(), env, { uid: 61003, gid: 998, chroot: '', ownPids: true });
    expect(launch.command).toMatch(/\/setpriv$/);
    expect(launch.args.slice(0, 3)).toEqual(['--pdeathsig', 'KILL', '--']);
    expect(launch.args[3]).toMatch(/\/unshare$/);
    expect(launch.args.slice(4, 10)).toEqual(['--pid', '--fork', '--mount-proc', '--kill-child', '--', launch.command]);
    expect(launch.args.slice(10, 16)).toEqual(['--reuid=61003', '--regid=998', '--clear-groups', '--pdeathsig', 'KILL', '--']);
    // a shell stays process 1 of the namespace, so a stop's SIGTERM reaches the command (process 2)
    expect(launch.args.slice(16, 20)).toEqual(['/bin/sh', '-c', '"$@" & wait $!', 'sh']);
    expect(launch.args.slice(20)).toEqual([expect.stringMatching(/^\/(usr\/)?bin\/bash$/), 'run.sh']);
    expect(launch.uid).toBeUndefined();
  });

  it('runs the command inside the chroot as the task user, passing the folder and words as arguments', () => {
    const launch = launchFor('ansible-playbook', ['site.yml'], '/srv/tmp/task_4', env, { uid: 1001, gid: 1002, chroot: '/srv/jail' });
    expect(launch.command).toBe('chroot');
    expect(launch.args).toEqual(['--userspec=1001:1002', '--', '/srv/jail', '/bin/sh', '-c', 'cd -- "$1" && shift && exec "$@"', 'sh', '/srv/tmp/task_4', 'ansible-playbook', 'site.yml']);
    expect(launch.uid).toBeUndefined();
  });

  it('still fails to start (rather than exiting 127) when the command does not exist', async () => {
    const sink = { write: () => true, drained: () => Promise.resolve() };
    await expect(startProcess({ command: 'no-such-command-xyz', args: [], cwd: tmpdir(), env }, sink).done).rejects.toThrow(/cannot start no-such-command-xyz/);
  });
});
