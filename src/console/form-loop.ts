import type { AstroGlobal } from 'astro';
import type { z } from 'zod';
import { apiSend, isFormCheck, readErrorText } from './runner-api.ts';
import { flashPath } from './flash.ts';
import { asSentence, fieldRefusal } from './api-error-text.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request' | 'redirect' | 'response'>;

/** Field name → the message shown under that field. */
export type FieldErrors = Record<string, string>;

/**
 * A control's attributes for its field's message: marked invalid and described by the message
 * `Field` renders as `${name}-error`; none while the field has no message.
 * @example <input name="name" {...errorAria(errors, 'name')} />
 */
export function errorAria(errors: FieldErrors, name: string): { 'aria-invalid'?: 'true'; 'aria-describedby'?: string } {
  return errors[name] ? { 'aria-invalid': 'true', 'aria-describedby': `${name}-error` } : {};
}

/** What a page renders after its form loop ran: the redirect to return, or the form again. */
export interface FormOutcome<V> {
  /** set after a successful call, or for a form check's request (runner-api.ts FORM_CHECK_HEADER): the page returns it at once */
  redirect?: Response;
  /** what the user typed (or the initial values on GET), to fill the form again */
  values: V;
  /** messages per field, in the seed's wording */
  fieldErrors: FieldErrors;
  /** a message for the whole form: the API's own error text */
  error: string;
  /** true when this request posted this form */
  submitted: boolean;
  /** what `spec.show` read from a successful answer (shown once, in this response: no redirect) */
  shown?: unknown;
}

export interface FormSpec<S extends z.ZodType, V> {
  /** which form of the page this is, sent as the hidden `_form` field (FormName) */
  name: string;
  /** the values shown before anything was posted */
  initial: V;
  /** posted fields → the values to show again (strings and booleans, as typed) */
  read: (form: FormData) => V;
  /** values → the API body, before validation */
  toBody: (values: V) => unknown;
  /** the zod schema the API route validates this body with */
  schema: S;
  /**
   * The message for a field the schema refused, in the seed's wording; fields without one get
   * the schema's own text. Also the place for rules the schema cannot state (return them from `check`).
   */
  messages?: Record<string, string>;
  /** may be async, e.g. to ask the API about a value before saving (the template form's cron check) */
  check?: (body: z.infer<S>, values: V) => FieldErrors | Promise<FieldErrors>;
  /**
   * Rules on the typed values that hold whether or not the schema accepted the body, so every
   * problem shows at once (schema messages win for the same field).
   */
  checkValues?: (values: V) => FieldErrors;
  /** the API call: method and path (the body is the validated one) */
  call: (body: z.infer<S>) => { method: 'POST' | 'PUT' | 'DELETE'; path: string };
  /**
   * For answers that hold a secret shown only once (a new runner's token): read it from the
   * successful answer and render the page with it (`outcome.shown`) instead of redirecting.
   */
  show?: (res: Response, body: z.infer<S>) => Promise<unknown>;
  /** where to go after success, with the flash key and name of the snackbar */
  done: (res: Response, body: z.infer<S>) => Promise<{ path: string; flash?: string; name?: string }> | { path: string; flash?: string; name?: string };
}


const formCache = new WeakMap<Request, Promise<FormData | null>>();

/**
 * The posted form of a request, read once however many forms a page checks.
 * @example const form = await postedForm(Astro.request);
 */
export function postedForm(request: Request): Promise<FormData | null> {
  if (request.method !== 'POST') return Promise.resolve(null);
  let form = formCache.get(request);
  if (!form) {
    form = request.formData().catch(() => null);
    formCache.set(request, form);
  }
  return form;
}

/**
 * The console's one form loop: a page's form posts to the page itself; this reads it, validates
 * the body with the API's own zod schema, calls the runner API as the user and answers a redirect
 * with a flash (303), or the values and messages to render the form again (status 400).
 * @example
 * const form = await runForm(Astro, { name: 'key', initial, read, toBody, schema: keyInputSchema, ... });
 * if (form.redirect) return form.redirect;
 */
export async function runForm<S extends z.ZodType, V>(astro: AstroLike, spec: FormSpec<S, V>): Promise<FormOutcome<V>> {
  const posted = await postedForm(astro.request);
  if (!posted || posted.get('_form') !== spec.name) {
    return { values: spec.initial, fieldErrors: {}, error: '', submitted: false };
  }
  const values = spec.read(posted);
  const outcome: FormOutcome<V> = { values, fieldErrors: {}, error: '', submitted: true };
  const parsed = spec.schema.safeParse(spec.toBody(values));
  if (!parsed.success) {
    outcome.fieldErrors = issueMessages(parsed.error.issues, spec.messages ?? {});
  } else {
    outcome.fieldErrors = (await spec.check?.(parsed.data, values)) ?? {};
  }
  outcome.fieldErrors = { ...spec.checkValues?.(values), ...outcome.fieldErrors };
  if (isFormCheck(astro.request)) {
    outcome.redirect = Response.json({ errors: outcome.fieldErrors }, { headers: { 'cache-control': 'no-store' } });
    return outcome;
  }
  if (!parsed.success || Object.keys(outcome.fieldErrors).length) {
    astro.response.status = 400;
    return outcome;
  }
  const { method, path } = spec.call(parsed.data);
  const res = await apiSend(astro, method, path, parsed.data);
  if (!res.ok) {
    const text = await readErrorText(res);
    const refusal = fieldRefusal(text);
    // a refusal naming a field of this form is said beside it; the API keeps the field's name
    if (refusal && res.status < 500 && typeof values === 'object' && values !== null && Object.hasOwn(values, refusal.field)) {
      outcome.fieldErrors = { [refusal.field]: asSentence(refusal.reason) };
    } else {
      outcome.error = text;
    }
    astro.response.status = res.status >= 500 ? 502 : 400;
    return outcome;
  }
  if (spec.show) {
    outcome.shown = await spec.show(res, parsed.data);
    return outcome;
  }
  const next = await spec.done(res, parsed.data);
  outcome.redirect = astro.redirect(next.flash ? flashPath(next.path, next.flash, next.name) : next.path, 303);
  return outcome;
}

/** The first message per top-level field: the seed's wording when given, else the schema's. */
function issueMessages(issues: readonly z.core.$ZodIssue[], messages: Record<string, string>): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '_');
    errors[field] ??= messages[field] ?? issue.message;
  }
  return errors;
}

/** Reads a trimmed text field ('' when absent). */
export function textField(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** Reads a checkbox: true when ticked. */
export function checkboxField(form: FormData, name: string): boolean {
  const value = form.get(name);
  return value === 'on' || value === 'true' || value === '1';
}

/** A positive integer id from a select, or null for an empty choice. */
export function idField(form: FormData, name: string): number | null {
  const text = textField(form, name);
  return /^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

export interface DeleteSpec {
  /** API path of the object with the posted id, or null when the id is not one of the page's */
  path: (id: number) => string | null;
  /** the page to return to, with the success flash key and the object's name */
  done: string;
  flash: string;
  name?: (id: number) => string;
  /** the `_form` value of this delete form, when a page deletes more than one kind of object ('delete' by default) */
  form?: string;
}

/**
 * The `delete` form of a page (DeleteDialog.astro): calls DELETE on the API and returns to the
 * list with a snackbar; a refusal comes back as an error snackbar with the server's message
 * (seed 001 §8). Returns null when this request did not post the delete form.
 * @example const deleted = await runDelete(Astro, { path: (id) => `/api/project/${pid}/keys/${id}`, done: self, flash: 'key_deleted' });
 * if (deleted) return deleted;
 */
export async function runDelete(astro: AstroLike, spec: DeleteSpec): Promise<Response | null> {
  const posted = await postedForm(astro.request);
  if (!posted || posted.get('_form') !== (spec.form ?? 'delete')) return null;
  const id = idField(posted, 'id');
  const path = id === null ? null : spec.path(id);
  if (id === null || !path) return astro.redirect(flashPath(spec.done, 'delete_failed'), 303);
  const name = spec.name?.(id) ?? '';
  const res = await apiSend(astro, 'DELETE', path);
  if (res.ok) return astro.redirect(flashPath(spec.done, spec.flash, name), 303);
  return astro.redirect(flashPath(spec.done, 'delete_failed', await readErrorText(res)), 303);
}

export interface ActionSpec {
  /** the hidden `_form` value of the action's form */
  name: string;
  /** API method and path for the posted id, or null when the id is not one the page offers */
  call: (id: number) => { method: 'POST' | 'PUT' | 'DELETE'; path: string } | null;
  /** the page to return to, the success flash key and the object's name */
  done: string;
  flash: string;
  name_of?: (id: number) => string;
  /** the flash key of a refusal, given the server's message as its name (default action_failed) */
  failed?: string;
}

/**
 * A one-button form without fields (make default, detach, remove an alias): posts `id`, calls
 * the API without a body and returns with a snackbar, or an `action_failed` error snackbar with
 * the server's message. Returns null when this request did not post this form.
 * @example const done = await runAction(Astro, { name: 'detach', call: (id) => ({ method: 'POST', path: `…/inventory/${id}/detach` }), done: self, flash: 'workspace_detached' });
 */
export async function runAction(astro: AstroLike, spec: ActionSpec): Promise<Response | null> {
  const posted = await postedForm(astro.request);
  if (!posted || posted.get('_form') !== spec.name) return null;
  const id = idField(posted, 'id');
  const call = id === null ? null : spec.call(id);
  const failed = spec.failed ?? 'action_failed';
  if (id === null || !call) return astro.redirect(flashPath(spec.done, failed), 303);
  const res = await apiSend(astro, call.method, call.path);
  if (res.ok) return astro.redirect(flashPath(spec.done, spec.flash, spec.name_of?.(id) ?? ''), 303);
  return astro.redirect(flashPath(spec.done, failed, await readErrorText(res)), 303);
}
