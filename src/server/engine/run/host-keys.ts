import type { HostKey, KeySecret } from './task-details.ts';
import type { SecretFiles } from './secret-files.ts';

/**
 * The key a clone of `gitUrl` authenticates with: the repository's own key when it is one
 * (SSH or login/password), else the key of the longest `url` host config the URL starts with.
 * @example repositoryKeyFor('git@github.com:org/site.git', noneKey, hostKeys) // the key mapped to 'git@github.com:org/'
 */
export function repositoryKeyFor(gitUrl: string, own: KeySecret | null, hostKeys: HostKey[]): KeySecret | null {
  if (own && own.type !== 'none') return own;
  const matches = hostKeys.filter((h) => h.type === 'url' && gitUrl.startsWith(h.host)).sort((a, b) => b.host.length - a.host.length);
  return matches[0]?.key ?? own;
}

/**
 * An ssh_config that gives each `host` host config's key to connections to that host — git's,
 * for the repository and its submodules, and Ansible's. ssh tries every matching IdentityFile in
 * order, so the host's key comes before `fallback` (the inventory key, for all other hosts), and
 * the template's extra keys (`extra`) come last, for every host: the one a host accepts is used.
 * Null when there are neither `host` configs nor extra keys: nothing changes then.
 * @example hostSshConfig(hostKeys, files, inventoryKey, templateKeys) // '/tmp/semaphore/.../.ssh-config-1a2b'
 */
export function hostSshConfig(hostKeys: HostKey[], files: SecretFiles, fallback: KeySecret | null = null, extra: KeySecret[] = []): string | null {
  const hosts = hostKeys.filter((h) => h.type === 'host' && h.key.privateKey);
  const extras = extra.filter((key) => key.type === 'ssh' && key.privateKey);
  if (!hosts.length && !extras.length) return null;
  const block = (pattern: string, key: KeySecret) => {
    const lines = [`Host ${pattern}`, `  IdentityFile "${keyFile(files, key)}"`, '  IdentitiesOnly yes'];
    if (key.login) lines.push(`  User ${key.login.replace(/[^\w.@-]/g, '')}`);
    return lines.join('\n');
  };
  const blocks = hosts.map((h) => block(h.host, h.key));
  const everyHost = [...(fallback?.type === 'ssh' && fallback.privateKey ? [fallback] : []), ...extras];
  if (everyHost.length) blocks.push(['Host *', ...everyHost.map((key) => `  IdentityFile "${keyFile(files, key)}"`), '  IdentitiesOnly yes'].join('\n'));
  return files.write('ssh-config', `${blocks.join('\n\n')}\n`);
}

function keyFile(files: SecretFiles, key: KeySecret): string {
  return files.write('host-key', key.privateKey.endsWith('\n') ? key.privateKey : `${key.privateKey}\n`);
}
