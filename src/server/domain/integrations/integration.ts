import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { IntegrationExtractValueTable, IntegrationMatcherTable, IntegrationTable } from '../../db/schema.ts';
import { parseJsonColumn, refId } from '../shared/project-refs.ts';

export const AUTH_METHODS = ['', 'none', 'github', 'bitbucket', 'token', 'hmac', 'basic'] as const;

/**
 * The only task fields a webhook may set. Anything else (playbook, arguments, params …) would
 * let whoever can post to the hook choose what runs on the server.
 */
export const TASK_FIELDS = ['message', 'git_branch', 'commit_hash'] as const;
export type TaskField = typeof TASK_FIELDS[number];

/** The longest "once within" window: a day. */
export const ONCE_WITHIN_MAX = 86_400;

const shortText = z.string().max(255, 'at most 255 characters');

export const integrationInputSchema = z.strictObject({
  id: z.number().int().optional(),
  project_id: z.number().int().optional(),
  name: shortText.optional(),
  template_id: refId.optional(),
  auth_method: z.enum(AUTH_METHODS).optional(),
  auth_secret_id: refId.nullable().optional(),
  auth_header: shortText.nullable().optional(),
  searchable: z.boolean().optional(),
  task_params: z.record(z.string(), z.unknown()).nullable().optional(),
  once_within: z.number().int('must be a whole number of seconds').min(1, 'must be at least 1 second').max(ONCE_WITHIN_MAX, 'at most a day (86400 seconds)').nullable().optional()
    .meta({ description: 'Signalbox: seconds in which identical deliveries (same extracted values, or the same body when nothing is extracted) start one task; null: off' }),
});
export type IntegrationInput = z.infer<typeof integrationInputSchema>;

const bodyDataType = z.enum(['json', 'xml', 'string', '']).nullable().optional();

export const matcherInputSchema = z.strictObject({
  id: z.number().int().optional(),
  integration_id: z.number().int().optional(),
  name: shortText.nullable().optional(),
  match_type: z.enum(['body', 'header', '']).nullable().optional(),
  method: z.enum(['equals', 'unequals', 'contains', '']).nullable().optional(),
  body_data_type: bodyDataType,
  key: z.string().max(1024).nullable().optional(),
  value: z.string().max(65535).nullable().optional(),
});
export type MatcherInput = z.infer<typeof matcherInputSchema>;

export const extractValueInputSchema = z.strictObject({
  id: z.number().int().optional(),
  integration_id: z.number().int().optional(),
  name: shortText.nullable().optional(),
  value_source: z.enum(['body', 'header', '']).nullable().optional(),
  body_data_type: bodyDataType,
  key: z.string().max(1024).nullable().optional(),
  variable: z.string().max(255).nullable().optional(),
  variable_type: z.enum(['environment', 'task', '']).nullable().optional(),
});
export type ExtractValueInput = z.infer<typeof extractValueInputSchema>;

export type IntegrationRow = Selectable<IntegrationTable>;
export type MatcherRow = Selectable<IntegrationMatcherTable>;
export type ExtractValueRow = Selectable<IntegrationExtractValueTable>;

/** An integration as the API shows it (reference §3.11). */
export function integrationRowToIntegration(row: IntegrationRow) {
  return {
    id: row.id, name: row.name, project_id: row.project_id, template_id: row.template_id,
    auth_method: row.auth_method, auth_secret_id: row.auth_secret_id, auth_header: row.auth_header ?? '',
    searchable: Boolean(row.searchable), task_params: parseJsonColumn<Record<string, unknown>>(row.task_params, {}),
    once_within: row.once_within ?? null,
    // ours: who the integration acts for (who last saved it; null when unknown)
    owner_id: row.owner_id,
  };
}

export function matcherRowToMatcher(row: MatcherRow) {
  return { ...row };
}

export function extractValueRowToExtractValue(row: ExtractValueRow) {
  return { ...row };
}
