import type { TFunction } from 'i18next';
import { z } from 'zod';
import { checkboxField, runDelete, runForm, textField, type FieldErrors, type FormSpec } from './form-loop.ts';
import { flashPath } from './flash.ts';
import {
  extractValueInputSchema, integrationInputSchema, matcherInputSchema,
} from '../server/domain/integrations/integration.ts';

/**
 * The three forms of the integration screens (seed 001 §3, §5): settings, matcher, extracted
 * value. Each is a spec for the shared form loop (runForm); the rules the lax API schemas cannot
 * state come back as field messages in the seed's wording, as the API itself words them.
 */

export const AUTH_METHOD_CHOICES = ['none', 'github', 'bitbucket', 'token', 'hmac', 'basic'] as const;
const NEEDS_SECRET = new Set(['github', 'bitbucket', 'token', 'hmac', 'basic']);
const NEEDS_HEADER = new Set(['token', 'hmac']);

export interface Integration {
  id: number; name: string; template_id: number; auth_method: string; auth_secret_id: number | null; auth_header: string;
  searchable: boolean; task_params: Record<string, unknown>; once_within: number | null;
  /** who it acts for (who last saved it); null: nobody */
  owner_id?: number | null;
}
export interface Matcher { id: number; name: string; match_type: string; body_data_type: string; key: string; method: string; value: string }
export interface ExtractValue { id: number; name: string; value_source: string; body_data_type: string; key: string; variable_type: string; variable: string }

export interface SettingsValues {
  name: string; template_id: string; auth_method: string; auth_header: string; auth_secret_id: string; task_params: string; searchable: boolean;
  /** seconds as typed; empty: off */
  once_within: string;
}

/** A typed number of seconds; empty is off (null), anything not a whole number is left for the checks to name. */
const secondsOf = (text: string) => (text === '' ? null : /^\d{1,9}$/.test(text) ? Number(text) : undefined);

const idOf = (text: string) => (/^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : undefined);

function parseParams(text: string): Record<string, unknown> | null {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : null;
  } catch {
    return null;
  }
}

/** The settings form (new integration on the list, edit on the integration page). */
export function settingsForm(t: TFunction, current: Integration | null, call: FormSpec<typeof integrationInputSchema, SettingsValues>['call'],
  done: FormSpec<typeof integrationInputSchema, SettingsValues>['done']): FormSpec<typeof integrationInputSchema, SettingsValues> {
  return {
    name: 'integration',
    initial: {
      name: current?.name ?? '', template_id: current ? String(current.template_id) : '', auth_method: current?.auth_method || 'none',
      auth_header: current?.auth_header ?? '', auth_secret_id: current?.auth_secret_id ? String(current.auth_secret_id) : '',
      task_params: current ? JSON.stringify(current.task_params ?? {}, null, 2) : '{}', searchable: current?.searchable ?? false,
      once_within: current?.once_within ? String(current.once_within) : '',
    },
    read: (form) => ({
      name: textField(form, 'name'), template_id: textField(form, 'template_id'), auth_method: textField(form, 'auth_method') || 'none',
      auth_header: textField(form, 'auth_header'), auth_secret_id: textField(form, 'auth_secret_id'),
      task_params: String(form.get('task_params') ?? ''), searchable: checkboxField(form, 'searchable'),
      once_within: textField(form, 'once_within'),
    }),
    toBody: (v) => ({
      ...(current ? { id: current.id } : {}), name: v.name, template_id: idOf(v.template_id),
      auth_method: v.auth_method, auth_header: v.auth_header || null,
      auth_secret_id: NEEDS_SECRET.has(v.auth_method) ? idOf(v.auth_secret_id) ?? null : null,
      task_params: parseParams(v.task_params) ?? {}, searchable: v.searchable, once_within: secondsOf(v.once_within),
    }),
    schema: integrationInputSchema,
    messages: { name: t('integrations.nameRequired'), auth_method: t('integrations.authMethodInvalid'), once_within: t('integrations.onceWithinInvalid') },
    check: (body, v) => {
      const errors: FieldErrors = {};
      if (!body.name?.trim()) errors.name = t('integrations.nameRequired');
      if (!body.template_id) errors.template_id = t('integrations.templateRequired');
      if (NEEDS_SECRET.has(v.auth_method) && !body.auth_secret_id) errors.auth_secret_id = t('integrations.secretRequired');
      if (NEEDS_HEADER.has(v.auth_method) && !v.auth_header) errors.auth_header = t('integrations.headerRequired');
      if (parseParams(v.task_params) === null) errors.task_params = t('integrations.taskParamsInvalid');
      if (secondsOf(v.once_within) === undefined) errors.once_within = t('integrations.onceWithinInvalid');
      return errors;
    },
    call, done,
  };
}

export interface MatcherValues { name: string; match_type: string; body_data_type: string; key: string; method: string; value: string }

/** A matcher of an integration: the five seed messages (and the name). */
export function matcherForm(t: TFunction, integrationId: number, current: Matcher | null, call: FormSpec<typeof matcherInputSchema, MatcherValues>['call'],
  done: FormSpec<typeof matcherInputSchema, MatcherValues>['done']): FormSpec<typeof matcherInputSchema, MatcherValues> {
  return {
    name: 'matcher',
    initial: {
      name: current?.name ?? '', match_type: current?.match_type ?? '', body_data_type: current?.body_data_type ?? '',
      key: current?.key ?? '', method: current?.method ?? '', value: current?.value ?? '',
    },
    read: (form) => ({
      name: textField(form, 'name'), match_type: textField(form, 'match_type'), body_data_type: textField(form, 'body_data_type'),
      key: textField(form, 'key'), method: textField(form, 'method'), value: String(form.get('value') ?? ''),
    }),
    toBody: (v) => ({ ...(current ? { id: current.id } : {}), integration_id: integrationId, ...v, body_data_type: v.match_type === 'body' ? v.body_data_type : '' }),
    schema: matcherInputSchema,
    check: (_body, v) => {
      const errors: FieldErrors = {};
      if (!v.name) errors.name = t('integrations.nameRequired');
      if (!v.match_type) errors.match_type = t('integrations.matchSourceRequired');
      if (v.match_type === 'body' && !v.body_data_type) errors.body_data_type = t('integrations.bodyDataFormatRequired');
      if (!(v.match_type === 'body' && v.body_data_type === 'string') && !v.key) errors.key = t('integrations.keyRequired');
      if (!v.method) errors.method = t('integrations.comparisonMethodRequired');
      if (!v.value.trim()) errors.value = t('integrations.valueRequired');
      return errors;
    },
    call, done,
  };
}

export interface ExtractValues { name: string; value_source: string; body_data_type: string; key: string; variable_type: string; variable: string }

/** An extracted value of an integration: the five seed messages (and the name). */
export function extractValueForm(t: TFunction, integrationId: number, current: ExtractValue | null, call: FormSpec<typeof extractValueInputSchema, ExtractValues>['call'],
  done: FormSpec<typeof extractValueInputSchema, ExtractValues>['done']): FormSpec<typeof extractValueInputSchema, ExtractValues> {
  return {
    name: 'value',
    initial: {
      name: current?.name ?? '', value_source: current?.value_source ?? '', body_data_type: current?.body_data_type ?? '',
      key: current?.key ?? '', variable_type: current?.variable_type ?? '', variable: current?.variable ?? '',
    },
    read: (form) => ({
      name: textField(form, 'name'), value_source: textField(form, 'value_source'), body_data_type: textField(form, 'body_data_type'),
      key: textField(form, 'key'), variable_type: textField(form, 'variable_type'), variable: textField(form, 'variable'),
    }),
    toBody: (v) => ({ ...(current ? { id: current.id } : {}), integration_id: integrationId, ...v, body_data_type: v.value_source === 'body' ? v.body_data_type : '' }),
    schema: extractValueInputSchema,
    check: (_body, v) => {
      const errors: FieldErrors = {};
      if (!v.name) errors.name = t('integrations.nameRequired');
      if (!v.value_source) errors.value_source = t('integrations.valueSourceRequired');
      if (v.value_source === 'body' && !v.body_data_type) errors.body_data_type = t('integrations.bodyDataTypeRequired');
      if (!(v.value_source === 'body' && v.body_data_type === 'string') && !v.key) errors.key = t('integrations.keyRequired');
      if (!v.variable_type) errors.variable_type = t('integrations.variableTypeRequired');
      if (!v.variable) errors.variable = t('integrations.variableRequired');
      return errors;
    },
    call, done,
  };
}

/**
 * The alias forms of an integrations screen: `alias_add` creates one through the form loop,
 * `alias_delete` removes one (runDelete). Returns the redirect to answer, or null.
 * @example const aliasDone = await runAliasForms(Astro, `/api/project/1/integrations`, '/project/1/integrations', ids);
 */
export async function runAliasForms(astro: Parameters<typeof runForm>[0], apiBase: string, self: string, aliasIds: number[]): Promise<Response | null> {
  const added = await runForm(astro, {
    name: 'alias_add', initial: {}, read: () => ({}), toBody: () => ({}), schema: z.strictObject({}),
    call: () => ({ method: 'POST', path: `${apiBase}/aliases` }),
    done: () => ({ path: self, flash: 'alias_added' }),
  });
  if (added.redirect) return added.redirect;
  if (added.submitted) return astro.redirect(flashPath(self, 'alias_failed', added.error), 303);
  return runDelete(astro, {
    form: 'alias_delete', path: (id) => (aliasIds.includes(id) ? `${apiBase}/aliases/${id}` : null), done: self, flash: 'alias_deleted',
  });
}
