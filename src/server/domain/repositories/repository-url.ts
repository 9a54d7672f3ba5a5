/** How a repository URL is fetched. `local` is a directory on the server used in place, no git. */
export type RepositoryUrlType = 'local' | 'file' | 'git' | 'ssh' | 'http' | 'https';

const SCHEMES = ['file', 'git', 'ssh', 'http', 'https'] as const;

/** scp-like SSH address: `[user@]host:path` (no scheme, host without slashes). */
const SCP_LIKE = /^(?:[^\s@/:]+@)?[^\s@/:]+:[^\s]+$/;

/**
 * Classifies a git URL, or returns null when it is none of the forms we can fetch (another
 * scheme, a relative path, whitespace).
 * @example classifyRepositoryUrl('git@github.com:org/repo.git') === 'ssh'
 * @example classifyRepositoryUrl('/srv/playbooks') === 'local'
 */
export function classifyRepositoryUrl(url: string): RepositoryUrlType | null {
  if (url.startsWith('/')) return /\s/.test(url) ? null : 'local';
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/\S+$/.exec(url);
  if (scheme) {
    const name = scheme[1]!.toLowerCase();
    return (SCHEMES as readonly string[]).includes(name) ? (name as RepositoryUrlType) : null;
  }
  return !url.includes('://') && SCP_LIKE.test(url) ? 'ssh' : null;
}
