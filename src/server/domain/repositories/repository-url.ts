/** How a repository URL is fetched. `local` is a directory on the server used in place, no git. */
export type RepositoryUrlType = 'local' | 'file' | 'git' | 'ssh' | 'http' | 'https';

const SCHEMES = ['file', 'git', 'ssh', 'http', 'https'] as const;

/** scp-like SSH address: `[user@]host:path` (no scheme, host without slashes). */
const SCP_LIKE = /^(?:[^\s@/:]+@)?[^\s@/:]+:[^\s]+$/;

/** git's remote-helper syntax `<transport>::<address>` (ext::, fd::): runs helpers, never a repository of ours. */
const REMOTE_HELPER = /^[A-Za-z][A-Za-z0-9+.-]*::/;

/**
 * Classifies a git URL as Semaphore does (no scheme means ssh, a leading / a local path), or
 * returns null for what git would fetch through something else: another scheme (`ftp://`) or
 * a remote helper (`ext::…`).
 * @example classifyRepositoryUrl('git@github.com:org/repo.git') === 'ssh'
 * @example classifyRepositoryUrl('/srv/playbooks') === 'local'
 */
export function classifyRepositoryUrl(url: string): RepositoryUrlType | null {
  if (!url.trim()) return null;
  if (url.startsWith('/')) return 'local';
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(url);
  if (scheme) {
    const name = scheme[1]!.toLowerCase();
    return (SCHEMES as readonly string[]).includes(name) ? (name as RepositoryUrlType) : null;
  }
  return REMOTE_HELPER.test(url) ? null : 'ssh';
}

/**
 * True for the forms people usually mean (a known scheme with no spaces, `user@host:path`, an
 * absolute path); the console warns beside the field about anything else, which the API accepts.
 * @example isUsualGitUrl('git@example.com') === false // no path: git reads it as a local folder
 */
export function isUsualGitUrl(url: string): boolean {
  const type = classifyRepositoryUrl(url);
  if (!type || /\s/.test(url)) return false;
  return type !== 'ssh' || url.includes('://') || SCP_LIKE.test(url);
}
