import { repoPathProblem } from '../../domain/shared/repo-path.ts';
import type { TaskDetails } from './task-details.ts';

/**
 * The save-time path rules, checked again before anything runs: rows restored, migrated or
 * written before the rules existed must not put `-c` or `/etc/…` on a command line either.
 * @example refuseEscapingPaths(details) // throws 'playbook "-c" must not start with "-"'
 */
export function refuseEscapingPaths(details: TaskDetails): void {
  const { task, template, inventory, vaults } = details;
  const paths: [string, string | null | undefined][] = [
    ['playbook', task.playbook || template.playbook],
    ['working directory', template.working_directory],
    [`inventory ${inventory?.type}`, inventory?.type === 'file' || inventory?.type === 'script' ? inventory.inventory.trim() : null],
    ...vaults.filter((v) => v.type === 'script').map((v): [string, string] => ['vault script', v.script]),
  ];
  for (const [label, path] of paths) {
    const problem = path ? repoPathProblem(path) : null;
    if (problem) throw new Error(`${label} ${JSON.stringify(path)} ${problem}`);
  }
}
