import type { AstroGlobal } from 'astro';
import { checkboxField, idField, postedForm, runForm, textField, type FormOutcome } from './form-loop.ts';
import { withParam } from './paging.ts';
import { apiGetOr } from './runner-api.ts';
import { PERMISSION, type ProjectRole, type User } from './types.ts';
import { templateBulkSchema, type BulkResult } from '../server/domain/templates/template-bulk.schema.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request' | 'redirect' | 'response' | 'url'>;

/** The bulk bar's form (`_form` value). */
export const BULK_FORM = 'templates_bulk';
/** The query parameter that opens the delete confirmation: the chosen ids, joined by dots. */
export const CONFIRM_PARAM = 'bulk_delete';
/** Names listed in a summary before "and N more" (the summary travels in the address). */
const LISTED = 5;
/** Names the delete confirmation lists before "and N more". */
export const CONFIRM_SHOWN = 20;

/** What the bulk bar posted: the action, the chosen templates, the view (move), the confirmation (delete). */
export interface BulkValues { action: string; ids: number[]; viewId: number | null; confirmed: boolean }

export interface BulkBarData {
  form: FormOutcome<BulkValues>;
  /** the templates the delete confirmation asks about (from `?bulk_delete=`) */
  confirmIds: number[];
  /** the actions this user may choose */
  actions: string[];
}

/** Seed 001 §6 as the API checks it: run needs RunTasks, the other actions ManageResources. */
export function bulkActionsFor(user: User | undefined, role: ProjectRole): string[] {
  const may = (bits: number) => Boolean(user?.admin) || (role.permissions & bits) === bits;
  return [...(may(PERMISSION.runTasks) ? ['run'] : []), ...(may(PERMISSION.manageResources) ? ['move', 'disable', 'enable', 'delete'] : [])];
}

/** Ids from fields holding one id or several joined by dots or commas; anything else is dropped. */
function idsOf(form: FormData, name: string): number[] {
  return form.getAll(name).flatMap((value) => (typeof value === 'string' ? value.split(/[.,]/) : []))
    .map((text) => text.trim()).filter((text) => /^\d{1,10}$/.test(text)).map(Number).filter((id) => id > 0);
}

/**
 * The ids a bulk form chose: each ticked row, and every row of the page when the select-all box
 * (`all_on_page`) was ticked: it works without JavaScript, the page's ids ride in `page_ids`.
 */
export function readBulkValues(form: FormData): BulkValues {
  const ids = [...idsOf(form, 'template_id'), ...(checkboxField(form, 'all_on_page') ? idsOf(form, 'page_ids') : [])];
  return { action: textField(form, 'action'), ids: [...new Set(ids)], viewId: idField(form, 'view_id'), confirmed: textField(form, 'confirmed') === '1' };
}

/** The ids of `?bulk_delete=` (at most the API's limit). */
export function confirmIdsOf(url: URL): number[] {
  return [...new Set((url.searchParams.get('bulk_delete') ?? '').split('.').filter((t) => /^\d{1,10}$/.test(t)).map(Number))].slice(0, 500);
}

/**
 * The names of the templates the delete confirmation lists: those on the page as they are, the
 * others (chosen further down the continuous list, `?scroll=all`, or on another page) asked of
 * the API one by one, at most CONFIRM_SHOWN in all; one the caller may not see stays `#id`.
 */
export async function confirmNames(astro: AstroLike, projectId: number, ids: number[], onPage: readonly { id: number; name: string }[]): Promise<Map<number, string>> {
  const known = new Map(onPage.map((tpl) => [tpl.id, tpl.name]));
  const shown = ids.slice(0, CONFIRM_SHOWN);
  const asked = await Promise.all(shown.filter((id) => !known.has(id))
    .map(async (id) => [id, (await apiGetOr<{ name: string } | null>(astro, `/api/project/${projectId}/templates/${id}`, null))?.name] as const));
  for (const [id, name] of asked) if (name) known.set(id, name);
  return new Map(shown.map((id) => [id, known.get(id) ?? `#${id}`]));
}

/**
 * The bulk bar of the template list: posts through the form loop to `POST …/templates/bulk`
 * and returns to the list with a snackbar summing up the results ("3 started, 1 refused: B:
 * disabled"). Delete goes to a confirmation first (`?bulk_delete=<ids>`), whose Yes posts again
 * with `confirmed=1`. A refused form (nothing chosen) shows the list again with its message.
 * @example const bulk = await runBulkBar(Astro, pid, bulkActionsFor(user, role)); if (bulk instanceof Response) return bulk;
 */
export async function runBulkBar(astro: AstroLike, projectId: number, actions: string[]): Promise<BulkBarData | Response> {
  const { t } = astro.locals;
  const back = withParam(new URL(withParam(astro.url, CONFIRM_PARAM, null), astro.url), 'name', null);
  const posted = await postedForm(astro.request);
  if (posted?.get('_form') === BULK_FORM) {
    const values = readBulkValues(posted);
    if (values.action === 'delete' && !values.confirmed && values.ids.length > 0 && actions.includes('delete')) {
      return astro.redirect(withParam(new URL(back, astro.url), CONFIRM_PARAM, values.ids.slice(0, 500).join('.')), 303);
    }
  }
  const form = await runForm(astro, {
    name: BULK_FORM,
    initial: { action: '', ids: [], viewId: null, confirmed: false },
    read: readBulkValues,
    toBody: (v) => ({ action: v.action, template_ids: v.ids, ...(v.action === 'move' ? { view_id: v.viewId } : {}) }),
    schema: templateBulkSchema,
    messages: { action: t('templateBulk.chooseAction'), template_ids: t('templateBulk.noneChosen') },
    call: () => ({ method: 'POST', path: `/api/project/${projectId}/templates/bulk` }),
    done: async (res, body) => {
      const { results } = (await res.json()) as { results: BulkResult[] };
      const refused = results.filter((r) => !r.ok);
      return { path: back, flash: refused.length ? 'templates_bulk_failed' : 'templates_bulk', name: summarise(t, body.action, results) };
    },
  });
  if (form.redirect) return form.redirect;
  return { form, confirmIds: confirmIdsOf(astro.url), actions };
}

/** "3 started, 1 refused: Beta: disabled" in the user's language. */
export function summarise(t: AstroLike['locals']['t'], action: string, results: BulkResult[]): string {
  const done = results.filter((r) => r.ok).length;
  const refused = results.filter((r) => !r.ok);
  const parts = [t(`templateBulk.done_${action}`, { count: done })];
  if (refused.length) {
    const reasons = refused.slice(0, LISTED).map((r) => `${r.name || `#${r.template_id}`}: ${reasonOf(t, r)}`);
    if (refused.length > LISTED) reasons.push(t('templateBulk.andMore', { count: refused.length - LISTED }));
    parts.push(t('templateBulk.refused', { count: refused.length, reasons: reasons.join('; ') }));
  }
  return parts.join(', ');
}

function reasonOf(t: AstroLike['locals']['t'], result: BulkResult): string {
  if (result.code === 'disabled') return t('templateBulk.reasonDisabled');
  if (result.code === 'in_use') return t('templateBulk.reasonInUse');
  return result.error ?? '';
}
