import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { HostConfigTable } from '../../db/schema.ts';
import { INT32_MAX } from '../../http/validation.ts';

export type HostConfigRow = Selectable<HostConfigTable>;

export const HOST_CONFIG_TYPES = ['host', 'url'] as const;
export type HostConfigType = (typeof HOST_CONFIG_TYPES)[number];

/** Body of POST/PUT `/host_configs` (Semaphore 2.20's HostConfigRequest). */
export const hostConfigInputSchema = z.strictObject({
  id: z.number().int().optional(),
  project_id: z.number().int().nullable().optional(),
  type: z.enum(HOST_CONFIG_TYPES, { error: 'must be host or url' }),
  host: z.string().trim().min(1, 'required').max(2048, 'at most 2048 characters'),
  ssh_key_id: z.number({ error: 'required; choose an SSH key' }).int().positive().max(INT32_MAX, 'no such id'),
});
export type HostConfigInput = z.infer<typeof hostConfigInputSchema>;

export interface HostConfig {
  id: number;
  project_id: number;
  type: HostConfigType;
  host: string;
  ssh_key_id: number;
}

/** Maps a row to the API shape. */
export function hostConfigRowToHostConfig(row: HostConfigRow): HostConfig {
  return { id: row.id, project_id: row.project_id, type: row.type as HostConfigType, host: row.host, ssh_key_id: row.ssh_key_id };
}

/**
 * A host name goes into an ssh_config `Host` line: one pattern, no spaces, quotes or
 * `!`-negation that would widen or invert what it matches. `*` and `?` wildcards are ssh's own.
 */
const HOST_PATTERN = /^[A-Za-z0-9._*?:[\]%-]+$/;

/** Why a value cannot be stored for the type, or null. */
export function hostValueProblem(type: HostConfigType, host: string): string | null {
  if (type === 'host') return HOST_PATTERN.test(host) && !host.startsWith('-') ? null : 'must be one SSH host name or pattern (letters, digits, . - : * ?)';
  return /\s/.test(host) ? 'must be a git URL or URL prefix without spaces' : null;
}
