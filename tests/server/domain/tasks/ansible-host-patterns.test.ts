import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { filesReadByLimit, splitHostPattern } from '../../../../src/server/domain/tasks/ansible-host-patterns.ts';

/** The Python that runs ansible-playbook (its shebang), so the judge is the installed ansible-core itself. */
function ansiblePython(): string {
  const script = execFileSync('sh', ['-c', 'command -v ansible-playbook'], { encoding: 'utf8' }).trim();
  return readFileSync(script, 'utf8').split('\n')[0]!.replace(/^#!\s*/, '').split(/\s+/)[0]!;
}

/** What ansible-core's own `split_host_pattern` makes of each value. */
function ansibleSplit(patterns: string[]): string[][] {
  const code = 'import json,sys\nfrom ansible.inventory.manager import split_host_pattern\nprint(json.dumps([split_host_pattern(p) for p in json.load(sys.stdin)]))';
  return JSON.parse(execFileSync(ansiblePython(), ['-c', code], { input: JSON.stringify(patterns), encoding: 'utf8' }));
}

/** Separators, Python-only whitespace, ranges, ports and IPv6 (whose pattern ansible anchors only at its start). */
const CORPUS = [
  'localhost:@/proc/1/environ', 'localhost @/etc/hostname', 'localhost:@/etc/passwd', '@/etc/hostname', 'localhost:@/dev/zero',
  'a,b[1], c[2:3] , d', 'web[1:3]:db', 'host:22', '[::1]:22', 'fe80::1', 'fe80::@/etc/passwd', '::@x', 'a::@x', '10.0.0.[1:5]',
  '10.0.0.1:@x', 'web\x1c@x', 'web\x85@x', 'web\u3000@x', 'web\ufeff@x', 'web\xa0@x', 'web;@x', 'web;:@x', '!@x', '&@x',
  'web:!@x', 'web:&@x', 'web\n@x', 'web\t@x', 'web\v@x', '[x]@x', '[x]:@x', '@[x]', 'host\n', '~web.*:@x', 'all:!db:&web',
  'x[1]:@x', '  @x  ', '\x1c@x', ',@x', 'web,\x1c@x', 'a:b c\u2028d\x85e', 'ho_st-:x', 'höst:@x', 'db-1.example.com',
  'db-1.example.com:2222', '[db]:22:@x', 'web[a:c]', 'web[a:c]@x', '1.2.3.4.5:@x', '::ffff:1.2.3.4', '0:0:0:0:0:ffff:1.2.3.4:@x',
  '[1:2:3:4:5:6:7:8]:@x', 'web\u2003@x', 'web\x1f,@x', '', ' , ',
];

describe('ansible host patterns, split as ansible-core splits them', () => {
  it('splits every value of the corpus exactly as the installed ansible-core does', () => {
    const expected = ansibleSplit(CORPUS);
    expect(CORPUS.map((p) => [p, splitHostPattern(p)])).toEqual(CORPUS.map((p, i) => [p, expected[i]]));
  });

  it('names the files a limit makes ansible read, whatever separates them', () => {
    expect(filesReadByLimit('localhost:@/etc/passwd')).toEqual(['/etc/passwd']);
    expect(filesReadByLimit('localhost @/etc/hostname')).toEqual(['/etc/hostname']);
    expect(filesReadByLimit('web\x1c@/etc/passwd')).toEqual(['/etc/passwd']);
    expect(filesReadByLimit('web,\x85@/etc/passwd')).toEqual(['/etc/passwd']);
    // with a comma ansible splits on commas only: `db:@x` is one (unmatched) host pattern
    expect(filesReadByLimit('web, db:@x')).toEqual([]);
    expect(filesReadByLimit('web:!@x:&@y;@z')).toEqual([]);
  });
});
