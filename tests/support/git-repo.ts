import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A real git repository on disk with one commit of `files` on branch `main`; executable when
 * the name ends in `.sh`. Returns its path and the commit hash.
 * @example const repo = createGitRepo(join(tmp, 'repo'), { 'run.sh': 'echo hi' });
 */
export function createGitRepo(path: string, files: Record<string, string>, message = 'First commit'): { path: string; hash: string } {
  mkdirSync(path, { recursive: true });
  git(path, ['init', '-q', '-b', 'main']);
  return commitFiles(path, files, message);
}

/** Adds or changes files and commits them; returns the new hash. */
export function commitFiles(path: string, files: Record<string, string>, message: string): { path: string; hash: string } {
  for (const [name, content] of Object.entries(files)) {
    const file = join(path, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    if (name.endsWith('.sh')) chmodSync(file, 0o755);
  }
  git(path, ['add', '-A']);
  git(path, ['-c', 'user.name=Test', '-c', 'user.email=test@example.test', 'commit', '-q', '-m', message]);
  return { path, hash: git(path, ['rev-parse', 'HEAD']).trim() };
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
}

/** Commits `files` on `branch` (created from the current HEAD), then returns to `main`. */
export function commitOnBranch(path: string, branch: string, files: Record<string, string>, message: string): { hash: string } {
  git(path, ['checkout', '-q', '-b', branch]);
  const { hash } = commitFiles(path, files, message);
  git(path, ['checkout', '-q', 'main']);
  return { hash };
}
