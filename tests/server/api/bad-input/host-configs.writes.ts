import type { Db } from '../../../../src/server/db/database.ts';
import type { BadInputContext, WriteRoute } from '../../../support/bad-input.ts';
import { insertKey } from '../../../support/project-rows.ts';

const p = ({ w }: BadInputContext) => `/api/project/${w.projectId}`;
const hostConfig = ({ more }: BadInputContext) => ({ type: 'host', host: 'web1.example.com', ssh_key_id: more.sshKey });
const fields = { type: 'string', host: 'string', ssh_key_id: 'number' } as const;

/** An SSH key and a host config using it, for the host config writes. */
export async function prepareHostConfigs(db: Db, { w }: BadInputContext): Promise<Record<string, number>> {
  const key = await insertKey(db, w.projectId, 'Fleet', 'ssh');
  const row = await db.insertInto('host_config').values({ project_id: w.projectId, type: 'host', host: 'web0', ssh_key_id: key.id }).returning('id').executeTakeFirstOrThrow();
  return { sshKey: key.id, hostConfig: row.id };
}

/** POST/PUT of host configs (Semaphore 2.20). */
export const HOST_CONFIG_WRITES: WriteRoute[] = [
  {
    route: 'POST /api/project/{id}/host_configs', path: (x) => `${p(x)}/host_configs`, valid: hostConfig, fields, maxLength: { host: 2048 },
    extra: (x) => [['a key that is not an SSH key', { ...hostConfig(x), ssh_key_id: x.ids.key }], ['a host with a newline', { ...hostConfig(x), host: 'a\nb' }]],
  },
  { route: 'PUT /api/project/{id}/host_configs/{h}', path: (x) => `${p(x)}/host_configs/${x.more.hostConfig}`, valid: hostConfig, fields, maxLength: { host: 2048 } },
];
