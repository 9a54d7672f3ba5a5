import { describe, expect, it } from 'vitest';
import { AnsibleOutputParser, type SummaryEvent } from '../../../../src/server/engine/summary/ansible-output-parser.ts';

function readAll(lines: string[]): SummaryEvent[] {
  const parser = new AnsibleOutputParser();
  return [...lines.flatMap((line) => parser.read(line)), ...parser.end()];
}

describe('ansible output parser', () => {
  it('reads coloured output: failures with the task they belong to, then the recap hosts', () => {
    const events = readAll([
      '\u001b[0;32mPLAY [web] *********\u001b[0m',
      'TASK [nginx : restart nginx] *********',
      '\u001b[0;31mfatal: [web1]: FAILED! => {"changed": false, "msg": "Could not find the requested service nginx: host"}\u001b[0m',
      'ok: [web2]',
      'PLAY RECAP *********',
      '\u001b[0;31mweb1\u001b[0m                       : \u001b[0;32mok=3   \u001b[0m changed=1    unreachable=0    \u001b[0;31mfailed=1   \u001b[0m skipped=2    rescued=0    ignored=0',
      'web2                       : ok=4    changed=1    unreachable=0    failed=0    skipped=0    rescued=1    ignored=2',
    ]);
    expect(events).toEqual([
      { kind: 'failure', failure: { host: 'web1', task: 'nginx : restart nginx', error: 'Could not find the requested service nginx: host' } },
      { kind: 'recap' },
      { kind: 'host', counts: { host: 'web1', ok: 3, changed: 1, unreachable: 0, failed: 1, skipped: 2, rescued: 0, ignored: 0 } },
      { kind: 'host', counts: { host: 'web2', ok: 4, changed: 1, unreachable: 0, failed: 0, skipped: 0, rescued: 1, ignored: 2 } },
    ]);
  });

  it('drops a failure that ansible ignores, and keeps loop item failures and delegated hosts by their inventory name', () => {
    const events = readAll([
      'TASK [optional check] ***',
      'fatal: [db1]: FAILED! => {"changed": true, "cmd": ["false"], "msg": "non-zero return code", "rc": 1}',
      '...ignoring',
      'TASK [install packages] ***',
      'failed: [db1] (item=nginx) => {"ansible_loop_var": "item", "item": "nginx", "msg": "No package matching nginx"}',
      'TASK [notify] ***',
      'fatal: [db1 -> localhost]: UNREACHABLE! => {"changed": false, "msg": "Failed to connect to the host via ssh", "unreachable": true}',
    ]);
    expect(events).toEqual([
      { kind: 'failure', failure: { host: 'db1', task: 'install packages', error: 'No package matching nginx' } },
      { kind: 'failure', failure: { host: 'db1', task: 'notify', error: 'Failed to connect to the host via ssh' } },
    ]);
  });

  it('keeps the raw text of a result that is not one line of JSON, and shortens a huge message', () => {
    const events = readAll([
      'TASK [shell] ***',
      'fatal: [app]: FAILED! => {',
      'TASK [big] ***',
      `fatal: [app]: FAILED! => ${JSON.stringify({ msg: 'x'.repeat(10_000) })}`,
    ]);
    const errors = events.map((e) => (e.kind === 'failure' ? e.failure.error : ''));
    expect(errors[0]).toBe('{');
    expect(errors[1]!.length).toBeLessThan(4100);
    expect(errors[1]!.endsWith('…')).toBe(true);
  });

  it('ignores recap-like lines outside a recap and task headers inside command output', () => {
    expect(readAll(['web1 : ok=1 changed=0 unreachable=0 failed=0', 'ok: [web1] => {"msg": "fatal: [x]: FAILED! => {}"}'])).toEqual([]);
  });
});
