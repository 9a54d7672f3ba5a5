import type { AstroGlobal } from 'astro';
import { apiGet, RunnerApiError } from './runner-api.ts';
import { runDelete, runForm, textField, type FormOutcome } from './form-loop.ts';
import { loadProjectContext, type ProjectContext } from './project-context.ts';
import { mayManage, mayUpdate, type TemplateItem } from './template-list.ts';
import { templateInputSchema } from '../server/domain/templates/template.ts';
import { descriptionSchema } from '../server/domain/templates/template-description.ts';
import { routeId } from './route-id.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request' | 'redirect' | 'response' | 'params' | 'url' | 'rewrite' | 'cookies'>;

/** Apps with a Terraform state (the State tab). */
export const STATE_APPS = new Set(['terraform', 'tofu', 'terragrunt']);

export interface TemplatePageData {
  ctx: ProjectContext;
  template: TemplateItem;
  canUpdate: boolean;
  canManage: boolean;
  /** the page's own path (forms post here) */
  self: string;
  description: FormOutcome<{ description: string }>;
  copyError: string;
}

/**
 * What every child of the template page (tasks, details, state) needs, with the page's forms:
 * Copy (POST of the template read back, named "<name> (copy)", then the copy's page), Delete
 * (DeleteDialog + runDelete) and the inline description (PUT .../description).
 * Returns a Response for a redirect or a missing template.
 * @example const page = await loadTemplatePage(Astro); if (page instanceof Response) return page;
 */
export async function loadTemplatePage(astro: AstroLike): Promise<TemplatePageData | Response> {
  const ctx = await loadProjectContext(astro, astro.params.id);
  const tid = routeId(astro.params.tid);
  if (!ctx || tid === null) return astro.rewrite('/404');
  const pid = ctx.project.id;
  let template: TemplateItem;
  try {
    template = await apiGet<TemplateItem>(astro, `/api/project/${pid}/templates/${tid}`);
  } catch (err) {
    if (err instanceof RunnerApiError && [400, 403, 404].includes(err.status)) return astro.rewrite('/404');
    throw err;
  }
  const { user } = astro.locals;
  const self = astro.url.pathname;

  const deleted = await runDelete(astro, {
    path: (id) => (id === template.id ? `/api/project/${pid}/templates/${id}` : null),
    done: `/project/${pid}/templates`, flash: 'template_deleted', name: () => template.name,
  });
  if (deleted) return deleted;

  const copy = await runForm(astro, {
    name: 'copy',
    initial: {},
    read: () => ({}),
    toBody: () => copyBody(template),
    schema: templateInputSchema,
    call: () => ({ method: 'POST', path: `/api/project/${pid}/templates` }),
    done: async (res, body) => ({
      path: `/project/${pid}/templates/${((await res.json()) as { id: number }).id}/tasks`, flash: 'template_copied', name: body.name ?? '',
    }),
  });
  if (copy.redirect) return copy.redirect;

  const description = await runForm(astro, {
    name: 'description',
    initial: { description: template.description ?? '' },
    read: (form) => ({ description: textField(form, 'description') }),
    toBody: (values) => values,
    schema: descriptionSchema,
    call: () => ({ method: 'PUT', path: `/api/project/${pid}/templates/${tid}/description` }),
    done: () => ({ path: `/project/${pid}/templates/${tid}/details`, flash: 'description_saved', name: template.name }),
  });
  if (description.redirect) return description.redirect;

  return {
    ctx, template, self, description, copyError: copy.error,
    canUpdate: mayUpdate(user, ctx.role), canManage: mayManage(user, ctx.role),
  };
}

/**
 * The body that copies a template: everything read from GET except its id, task summary and
 * vault ids; the name marked as a copy (the API creates a terraform copy's own workspace).
 */
export function copyBody(template: TemplateItem): Record<string, unknown> {
  const { id: _id, last_task: _last, tasks: _tasks, vaults, ...rest } = template as TemplateItem & Record<string, unknown>;
  const body: Record<string, unknown> = { ...rest, name: `${template.name} (copy)` };
  delete body.last_task_id;
  delete body.created;
  if (STATE_APPS.has(template.app)) delete body.inventory_id;
  body.vaults = (vaults ?? []).map(({ id: _vid, ...vault }) => {
    const copy: Record<string, unknown> = { ...vault };
    delete copy.template_id;
    return copy;
  });
  return body;
}
