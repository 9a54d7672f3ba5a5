import { Permission, projectRead, projectWrite, type MatrixRow } from '../../../support/permission-matrix.ts';
import { insertProjectResources } from '../../../support/resource-rows.ts';
import { insertKey } from '../../../support/project-rows.ts';

const p = (w: { projectId: number }) => `/api/project/${w.projectId}`;
const setup: MatrixRow['setup'] = (db, w) => insertProjectResources(db, w.projectId);

/** A project with a url inventory (`urlInventory`) besides the usual resources. */
const urlSetup: MatrixRow['setup'] = async (db, w) => {
  const ids = await insertProjectResources(db, w.projectId);
  const row = await db.insertInto('inventory').values({
    project_id: w.projectId, name: 'Source', type: 'url', inventory: 'http://127.0.0.1:9/inventory', ssh_key_id: ids.key, become_key_id: null, repository_id: null, holder_id: null,
  }).returning('id').executeTakeFirstOrThrow();
  return { ...ids, urlInventory: row.id };
};

/** A resource of the key store family: its path, its id names in ResourceIds and a body it accepts. */
interface Family { path: string; id: string; spare: string; body: (ids: Record<string, number>) => unknown }

const FAMILIES: Family[] = [
  { path: 'keys', id: 'key', spare: 'spareKey', body: () => ({ name: 'K', type: 'none' }) },
  { path: 'repositories', id: 'repository', spare: 'spareRepository', body: (ids) => ({ name: 'R', git_url: '/srv/r', git_branch: 'main', ssh_key_id: ids.key }) },
  { path: 'inventory', id: 'inventory', spare: 'spareInventory', body: (ids) => ({ name: 'I', type: 'static', inventory: 'localhost', ssh_key_id: ids.key }) },
  { path: 'environment', id: 'environment', spare: 'spareEnvironment', body: () => ({ name: 'E', json: '{}' }) },
];

/**
 * Keys, repositories, inventories and variable groups × every caller: any member reads (refs
 * included), owner and manager write (ManageResources), task_runner and guest get 403.
 */
export const RESOURCES_MATRIX: MatrixRow[] = FAMILIES.flatMap((f): MatrixRow[] => [
  { route: `GET /api/project/{id}/${f.path}`, setup, path: (w) => `${p(w)}/${f.path}`, expect: projectRead() },
  { route: `GET /api/project/{id}/${f.path}/{${f.id}}`, setup, path: (w, _, ids) => `${p(w)}/${f.path}/${ids[f.id]}`, expect: projectRead() },
  { route: `GET /api/project/{id}/${f.path}/{${f.id}}/refs`, setup, path: (w, _, ids) => `${p(w)}/${f.path}/${ids[f.id]}/refs`, expect: projectRead() },
  { route: `POST /api/project/{id}/${f.path}`, setup, path: (w) => `${p(w)}/${f.path}`, body: (_, __, ids) => f.body(ids), expect: projectWrite(Permission.ManageResources, 201) },
  {
    route: `PUT /api/project/{id}/${f.path}/{${f.id}}`, setup, path: (w, _, ids) => `${p(w)}/${f.path}/${ids[f.id]}`,
    body: (_, __, ids) => f.body(ids), expect: projectWrite(Permission.ManageResources, 204),
  },
  { route: `DELETE /api/project/{id}/${f.path}/{unused ${f.id}}`, setup, path: (w, _, ids) => `${p(w)}/${f.path}/${ids[f.spare]}`, expect: projectWrite(Permission.ManageResources, 204) },
]).concat([
  // the fixture repository is a local directory: members get its branches (none when it is not a git repository)
  // ansible-inventory reads the fixture's static inventory
  { route: 'GET /api/project/{id}/hosts', setup, path: (w) => `${p(w)}/hosts`, expect: projectRead(200) },
  { route: 'GET /api/project/{id}/hosts/{host}', setup, path: (w) => `${p(w)}/hosts/localhost`, expect: projectRead(200) },
  { route: 'GET /api/project/{id}/inventory/{inventory}/hosts', setup, path: (w, _, ids) => `${p(w)}/inventory/${ids.inventory}/hosts`, expect: projectRead(200) },
  // a url inventory at a closed port: the sync is recorded with its error, 201 all the same
  { route: 'POST /api/project/{id}/inventory/{url inventory}/sync', setup: urlSetup, path: (w, _, ids) => `${p(w)}/inventory/${ids.urlInventory}/sync`, expect: projectWrite(Permission.RunTasks, 201) },
  { route: 'GET /api/project/{id}/inventory/{inventory}/syncs', setup: urlSetup, path: (w, _, ids) => `${p(w)}/inventory/${ids.urlInventory}/syncs`, expect: projectRead(200) },
  { route: 'GET /api/project/{id}/repositories/{repository}/branches', setup, path: (w, _, ids) => `${p(w)}/repositories/${ids.repository}/branches`, expect: projectRead(200) },
], hostConfigRows());

/** Host configs: any member reads, owner and manager write (ManageResources). */
function hostConfigRows(): MatrixRow[] {
  const hostSetup: MatrixRow['setup'] = async (db, w) => {
    const key = await insertKey(db, w.projectId, 'Fleet', 'ssh');
    const row = await db.insertInto('host_config').values({ project_id: w.projectId, type: 'host', host: 'web0', ssh_key_id: key.id }).returning('id').executeTakeFirstOrThrow();
    return { sshKey: key.id, hostConfig: row.id };
  };
  const body: MatrixRow['body'] = (_, __, ids) => ({ type: 'host', host: 'web1', ssh_key_id: ids.sshKey });
  const one = (w: { projectId: number }, ids: Record<string, number>) => `${p(w)}/host_configs/${ids.hostConfig}`;
  return [
    { route: 'GET /api/project/{id}/host_configs', setup: hostSetup, path: (w) => `${p(w)}/host_configs`, expect: projectRead() },
    { route: 'GET /api/project/{id}/host_configs/{h}', setup: hostSetup, path: (w, _, ids) => one(w, ids), expect: projectRead() },
    { route: 'POST /api/project/{id}/host_configs', setup: hostSetup, path: (w) => `${p(w)}/host_configs`, body, expect: projectWrite(Permission.ManageResources, 201) },
    { route: 'PUT /api/project/{id}/host_configs/{h}', setup: hostSetup, path: (w, _, ids) => one(w, ids), body, expect: projectWrite(Permission.ManageResources, 204) },
    { route: 'DELETE /api/project/{id}/host_configs/{h}', setup: hostSetup, path: (w, _, ids) => one(w, ids), expect: projectWrite(Permission.ManageResources, 204) },
  ];
}
