import type { HostFacts } from '../server/domain/tasks/host-facts.ts';

/**
 * A host's operating system as the console shows it: distribution and version, as gathered.
 * @example osOf({ distribution: 'Debian', distribution_version: '12.11', ... }) // 'Debian 12.11'
 */
export function osOf(facts: Pick<HostFacts, 'distribution' | 'distribution_version'> | null): string {
  return [facts?.distribution, facts?.distribution_version].filter(Boolean).join(' ');
}
