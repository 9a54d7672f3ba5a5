/**
 * A project backup in Semaphore 2.16's `ProjectBackup` format (every section its export writes:
 * meta, keys, repositories, inventories, variable groups, views and a build template with a cron
 * schedule), written for these tests. A fresh object each call, so tests may change it.
 * @example const res = await s.call('POST', '/api/projects/restore', semaphoreBackup(), admin);
 */
export function semaphoreBackup(): any {
  return {
    meta: { name: 'edge-lab', alert: true, alert_chat: 'ops-room', max_parallel_tasks: 0, type: null },
    keys: [{ name: 'None', type: 'none' }, { name: 'Vault secret', type: 'login_password' }],
    repositories: [{ name: 'Site', git_url: 'https://git.example.test/ops/site.git', git_branch: 'main', ssh_key: 'None' }],
    inventories: [
      { name: 'Build hosts', inventory: '', ssh_key: 'None', become_key: 'None', type: 'static' },
      { name: 'Staging', inventory: '', ssh_key: 'None', become_key: 'None', type: 'file' },
      { name: 'Live', inventory: '', ssh_key: 'None', become_key: 'None', type: 'file' },
    ],
    environments: [{ name: 'Blank', password: null, json: '{}', env: null }],
    views: [{ title: 'Packaging', position: 0 }],
    templates: [{
      name: 'Build', inventory: 'Build hosts', repository: 'Site', environment: 'Blank', view: 'Packaging',
      playbook: 'package.yml', app: 'ansible', working_directory: '.', arguments: '[]', allow_override_args_in_task: false,
      description: 'Packages the site', vault_key: null, type: 'build', start_version: '2.0.0', build_template: null,
      autorun: false, survey_vars: [], suppress_success_alerts: false, suppress_error_alerts: false, cron: '* * * * *',
    }],
  };
}
