import { z } from 'zod';
import type { Db, Tx } from '../../db/database.ts';
import type { TemplateRow } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { imageReferenceProblem } from '../../lib/image-reference.ts';
import { leaveOutUnset } from '../../lib/unset-fields.ts';

/** A task container's network: the engine's default bridge, none at all, or the machine's own. */
export const EXECUTOR_NETWORKS = ['bridge', 'none', 'host'] as const;
export type ExecutorNetwork = (typeof EXECUTOR_NETWORKS)[number];

/** When the engine pulls a task's image: before every task, only when it is not on the machine, or never (built or imported locally). */
export const PULL_POLICIES = ['always', 'if-missing', 'never'] as const;
export type PullPolicy = (typeof PULL_POLICIES)[number];

/** A user the engine's `--user` reads: a name or id, with an optional group; never an option. */
const CONTAINER_USER = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,31})?$/;
/** A memory size as the engines read it: bytes, or k, m, g. */
const MEMORY = /^[1-9][0-9]{0,12}[bkmg]?$/i;

/** An image reference, or empty / null for "none here". */
export const executorImageField = z.string().max(1024).nullable().optional().superRefine((value, ctx) => {
  const problem = value?.trim() ? imageReferenceProblem(value.trim()) : null;
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** The template's container fields beside Semaphore's `executor_image` (Signalbox's own). */
export const executorTemplateFields = {
  executor_network: z.enum([...EXECUTOR_NETWORKS, ''], { error: 'must be bridge, none or host' }).nullable().optional()
    .meta({ description: "Signalbox: the task container's network: the engine's default bridge (empty), none, or the host's" }),
  executor_cpus: z.number({ error: 'must be a number of CPUs such as 1.5' }).positive('must be more than 0').max(1024, 'at most 1024').nullable().optional()
    .meta({ description: 'Signalbox: CPUs the task container may use (empty: no limit)' }),
  executor_memory: z.string().trim().max(16).nullable().optional()
    .refine((v) => !v || MEMORY.test(v), 'must be a size such as 512m or 2g')
    .meta({ description: 'Signalbox: memory the task container may use, such as 512m or 2g (empty: no limit)' }),
  executor_user: z.string().trim().max(65).nullable().optional()
    .refine((v) => !v || CONTAINER_USER.test(v), 'must be a user such as 1000, 1000:1000 or ansible')
    .meta({ description: "Signalbox: the user the task's commands run as inside the container (empty: the image's own)" }),
  executor_pull: z.enum([...PULL_POLICIES, ''], { error: 'must be always, if-missing or never' }).nullable().optional()
    .meta({ description: "Signalbox: when the image is pulled (empty: the server's SEMAPHORE_EXECUTOR_PULL)" }),
  executor_registry_key_id: z.number().int().positive().nullable().optional()
    .meta({ description: "Signalbox: a login/password key of the project that signs in to the image's registry" }),
};

type ExecutorInput = { executor_image?: string | null } & { [K in keyof typeof executorTemplateFields]?: z.infer<(typeof executorTemplateFields)[K]> };
export type ExecutorColumns = Pick<TemplateRow, 'executor_image' | 'executor_network' | 'executor_cpus' | 'executor_memory' | 'executor_user' | 'executor_pull' | 'executor_registry_key_id'>;

/**
 * The template's container columns after this body: fields left out keep their stored value;
 * the registry key must be a login/password key of the project.
 * @example const columns = await executorColumns(tx, projectId, { executor_image: 'alpine:3', executor_network: 'none' });
 */
export async function executorColumns(db: Db | Tx, projectId: number, input: ExecutorInput, current?: TemplateRow): Promise<ExecutorColumns> {
  const text = <K extends 'executor_image' | 'executor_network' | 'executor_memory' | 'executor_user' | 'executor_pull'>(key: K) =>
    input[key] !== undefined ? input[key]?.trim() || null : current?.[key] ?? null;
  const cpus = input.executor_cpus !== undefined ? (input.executor_cpus === null ? null : String(input.executor_cpus)) : current?.executor_cpus ?? null;
  const keyId = input.executor_registry_key_id !== undefined ? input.executor_registry_key_id : current?.executor_registry_key_id ?? null;
  if (keyId && input.executor_registry_key_id !== undefined) await checkRegistryKey(db, projectId, keyId);
  const network = text('executor_network');
  return {
    executor_image: text('executor_image'),
    // the default bridge is stored as "not set", so a later change of the engine's default applies
    executor_network: network === 'bridge' ? null : network,
    executor_cpus: cpus,
    executor_memory: text('executor_memory')?.toLowerCase() ?? null,
    executor_user: text('executor_user'),
    executor_pull: text('executor_pull'),
    executor_registry_key_id: keyId,
  };
}

async function checkRegistryKey(db: Db | Tx, projectId: number, id: number): Promise<void> {
  const key = await db.selectFrom('access_key').select('type').where('id', '=', id).where('project_id', '=', projectId).where('owner', '=', '').executeTakeFirst();
  if (!key) throw badRequest(`executor_registry_key_id: no access key ${id} in this project`);
  if (key.type !== 'login_password') throw badRequest(`executor_registry_key_id: key ${id} is not a login/password key`);
}

/**
 * The API's view of the container columns (Signalbox's fields; `executor_image` is Semaphore's
 * and shown by the template itself): the network always, the others left out when unset, as
 * Semaphore's answers leave unset fields out.
 */
export function executorFieldsOf(row: TemplateRow) {
  return leaveOutUnset({
    executor_network: (row.executor_network ?? 'bridge') as ExecutorNetwork,
    executor_cpus: row.executor_cpus === null ? null : Number(row.executor_cpus),
    executor_memory: row.executor_memory,
    executor_user: row.executor_user,
    executor_pull: row.executor_pull as PullPolicy | null,
    executor_registry_key_id: row.executor_registry_key_id,
  }, ['executor_cpus', 'executor_memory', 'executor_user', 'executor_pull', 'executor_registry_key_id']);
}
