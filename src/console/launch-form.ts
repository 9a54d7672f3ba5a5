import type { APIContext, MiddlewareNext } from 'astro';
import { taskInputSchema } from '../server/domain/tasks/task.ts';
import { apiGet, RunnerApiError } from './runner-api.ts';
import { checkboxField, runForm, textField, type FormOutcome } from './form-loop.ts';
import { withParam } from './paging.ts';
import {
  checkLaunch, initialLaunchValues, launchBody, launchTemplateId, projectIdOfPath, surveyVars, varField,
  DEFAULT_DEBUG_LEVEL, LAUNCH_FORM, LIMIT_PICK, type LaunchTemplate, type LaunchValues,
} from './launch-model.ts';

/** The posted form as values (fields the template does not offer are ignored later). */
export function readLaunchValues(form: FormData, template: LaunchTemplate): LaunchValues {
  const vars: Record<string, string> = {};
  for (const v of surveyVars(template)) vars[v.name] = textField(form, varField(v.name));
  const raw = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  return {
    message: textField(form, 'message'), vars,
    build_task_id: textField(form, 'build_task_id'), git_branch: textField(form, 'git_branch'), inventory_id: textField(form, 'inventory_id'),
    environment_ids: form.getAll('environment_ids').filter((id): id is string => typeof id === 'string' && id !== '').join(','),
    arguments: raw('arguments'), limit: pickedLimit(form), tags: textField(form, 'tags'), skip_tags: textField(form, 'skip_tags'),
    debug: checkboxField(form, 'debug'), debug_level: textField(form, 'debug_level') || String(DEFAULT_DEBUG_LEVEL),
    dry_run: checkboxField(form, 'dry_run'), diff: checkboxField(form, 'diff'), skip_galaxy_install: checkboxField(form, 'skip_galaxy_install'),
    plan: checkboxField(form, 'plan'), destroy: checkboxField(form, 'destroy'), auto_approve: checkboxField(form, 'auto_approve'),
    upgrade: checkboxField(form, 'upgrade'), reconfigure: checkboxField(form, 'reconfigure'),
  };
}

/** The limit typed, then the hosts and groups ticked, each once, comma-separated. */
function pickedLimit(form: FormData): string {
  const picked = form.getAll(LIMIT_PICK).filter((v): v is string => typeof v === 'string' && v !== '');
  return [...new Set([textField(form, 'limit'), ...picked].filter(Boolean))].join(',');
}

/** What a failed launch POST leaves for the dialog to show again. */
export type LaunchOutcome = Pick<FormOutcome<LaunchValues>, 'values' | 'fieldErrors' | 'error'>;

declare global {
  namespace App {
    interface Locals {
      /** the launch dialog's posted values and messages when its POST was refused */
      launchForm?: LaunchOutcome;
    }
  }
}

/**
 * The launch dialog's form loop, run for any project page (the dialog opens over every page
 * with `?new_task=<tid>`, so its POST is taken here before the page sees it): the shared
 * runForm with the API's taskInputSchema. Success → 303 to the same page with the new task's
 * log (`?t=`); refused → the page rendered again as a GET with the dialog, its values and
 * messages (status 400). Returns null for any other request.
 * @example const launched = await handleLaunchPost(ctx, next); if (launched) return launched;
 */
export async function handleLaunchPost(ctx: APIContext, next: MiddlewareNext): Promise<Response | null> {
  if (ctx.request.method !== 'POST') return null;
  const projectId = projectIdOfPath(ctx.url.pathname);
  const templateId = launchTemplateId(ctx.url);
  if (!projectId || !templateId) return null;
  const peek = await ctx.request.clone().formData().catch(() => null);
  if (peek?.get('_form') !== LAUNCH_FORM) return null;
  let template: LaunchTemplate;
  try {
    template = await apiGet<LaunchTemplate>(ctx, `/api/project/${projectId}/templates/${templateId}`);
  } catch (err) {
    if (err instanceof RunnerApiError && err.status !== 401) return ctx.redirect(withParam(ctx.url, 'new_task', null), 303);
    throw err;
  }
  const { t } = ctx.locals;
  const response = { status: 200 } as ResponseInit & { status: number };
  const outcome = await runForm({ locals: ctx.locals, request: ctx.request, redirect: ctx.redirect, response } as never, {
    name: LAUNCH_FORM,
    initial: initialLaunchValues(template),
    read: (form) => readLaunchValues(form, template),
    toBody: (values) => launchBody(template, values),
    schema: taskInputSchema,
    check: (_body, values) => checkLaunch(template, values, (key, vars) => t(`launch.${key}`, vars ?? {})),
    call: () => ({ method: 'POST', path: `/api/project/${projectId}/tasks` }),
    done: async (res) => {
      const created = (await res.json()) as { id: number };
      return { path: withParam(new URL(withParam(ctx.url, 'new_task', null), ctx.url), 't', String(created.id)) };
    },
  });
  if (outcome.redirect) return outcome.redirect;
  ctx.locals.launchForm = { values: outcome.values, fieldErrors: outcome.fieldErrors, error: outcome.error };
  const headers = new Headers(ctx.request.headers);
  headers.delete('content-type');
  headers.delete('content-length');
  const page = await next(new Request(ctx.url, { method: 'GET', headers }));
  return new Response(page.body, { status: response.status === 200 ? 400 : response.status, headers: page.headers });
}
