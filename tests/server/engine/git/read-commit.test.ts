import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCommit } from '../../../../src/server/engine/git/prepare-repository.ts';

describe('readCommit of a local repository path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-read-commit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports HEAD in a work tree and in a folder inside one, nothing in a plain folder', async () => {
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, 'sub'), { recursive: true });
    writeFileSync(join(repo, 'sub', 'run.sh'), 'exit 0\n');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'First commit');
    const hash = git('rev-parse', 'HEAD');
    expect(await readCommit(repo)).toEqual({ commitHash: hash, commitMessage: 'First commit' });
    expect(await readCommit(join(repo, 'sub'))).toEqual({ commitHash: hash, commitMessage: 'First commit' });
    const plain = join(dir, 'plain');
    mkdirSync(plain);
    expect(await readCommit(plain)).toEqual({ commitHash: null, commitMessage: '' });
  });
});
