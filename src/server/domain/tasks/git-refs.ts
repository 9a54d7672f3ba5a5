import { badRequest } from '../../http/errors.ts';

/**
 * A branch name a run may ask for (POST /tasks, webhook values): letters, digits, `_ . / -`, no
 * `..`, and no leading `-` even after `refs/heads/` — git would read it as an option
 * (`--upload-pack=…`). Returns the trimmed name; 400 otherwise.
 * @example checkGitBranch('release/2.1') // 'release/2.1'
 */
export function checkGitBranch(value: string, field = 'git_branch'): string {
  const branch = value.trim();
  const short = branch.replace(/^refs\/heads\//, '');
  if (!/^[\w./-]+$/.test(branch) || branch.startsWith('-') || short.startsWith('-') || branch.includes('..') || short.startsWith('/')) {
    throw badRequest(`${field}: not a valid branch name`);
  }
  return branch;
}

/**
 * A commit id: 4 to 64 hexadecimal digits. Returns it trimmed; 400 otherwise.
 * @example checkCommitHash('a1b2c3d') // 'a1b2c3d'
 */
export function checkCommitHash(value: string, field = 'commit_hash'): string {
  const hash = value.trim();
  if (!/^[0-9a-f]{4,64}$/i.test(hash)) throw badRequest(`${field}: must be a hexadecimal commit id`);
  return hash;
}
