import { posix } from 'node:path';
import { badRequest } from '../../http/errors.ts';

/**
 * Why a path from a template or inventory cannot name a file of the task's checkout, or null
 * when it can: it must be relative, must not start with `-` (a command would read it as an
 * option: `playbook: "-c"` ran shell), and must still be inside the checkout once resolved.
 * @example repoPathProblem('deploy/site.yml') // null
 * @example repoPathProblem('../../etc/passwd') // 'must stay inside the repository'
 */
export function repoPathProblem(path: string): string | null {
  if (path.startsWith('-')) return 'must not start with "-"';
  if (path.includes('\u0000')) return 'must not contain NUL characters';
  if (posix.isAbsolute(path) || /^[a-zA-Z]:|^\\/.test(path)) return 'must be a path relative to the repository';
  const resolved = posix.resolve('/checkout', path.replaceAll('\\', '/'));
  if (resolved !== '/checkout' && !resolved.startsWith('/checkout/')) return 'must stay inside the repository';
  return null;
}

/**
 * 400 `<field>: <problem>` for a path that is not inside the checkout; returns the path.
 * @example checkRepoPath(input.playbook, 'playbook')
 */
export function checkRepoPath(path: string, field: string): string {
  const problem = repoPathProblem(path);
  if (problem) throw badRequest(`${field}: ${problem}`);
  return path;
}
