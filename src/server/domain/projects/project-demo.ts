import type { Tx } from '../../db/database.ts';
import type { ProjectRow } from '../../db/schema.ts';

/**
 * Hook for `POST /api/projects` with `"demo": true`: adds the demo resources of reference §3.2
 * (Vault Password key, Demo repository, Build/Dev/Prod inventories, demo templates) inside the
 * creating transaction. Owned by the project-resources part; until it fills this in, a demo
 * project gets only the defaults every project gets.
 */
export async function addDemoResources(_tx: Tx, _project: ProjectRow, _ownerId: number): Promise<void> {}
