import type { AstroGlobal } from 'astro';
import { z } from 'zod';
import { runnerActiveSchema, runnerInputSchema, type Runner } from '../server/domain/runners/runner.ts';
import { apiGetPage, apiSend } from './runner-api.ts';
import { flashPath } from './flash.ts';
import { checkboxField, runDelete, runForm, textField, type FormOutcome } from './form-loop.ts';
import { PAGE_SIZE } from './paging.ts';
import { routeId } from './route-id.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request' | 'redirect' | 'response' | 'url'>;

/** What the runner form shows and sends. */
export interface RunnerValues { name: string; tag: string; webhook: string; max_parallel_tasks: string; active: boolean; is_default: boolean; register_later: boolean }

/** A runner just created: its one-time token and private key. */
export interface CreatedRunner extends Runner { token?: string; private_key?: string }

/** A one-time registration token just made for an unregistered runner. */
export interface RunnerRegistration { name: string; token: string }

export interface RunnersScreen {
  redirect?: Response;
  runners: Runner[];
  total: number;
  page: number;
  pages: number;
  form: FormOutcome<RunnerValues>;
  /** the runner the open dialog edits (null: the new-runner dialog) */
  editing: Runner | null;
  /** `?dialog=new|edit` (or a form sent back with errors) */
  dialogOpen: boolean;
  /** `?delete=<id>` */
  deleting: Runner | null;
  created: CreatedRunner | null;
  registration: RunnerRegistration | null;
}

const EMPTY: RunnerValues = { name: '', tag: '', webhook: '', max_parallel_tasks: '0', active: true, is_default: false, register_later: false };

/**
 * The runners screen of one scope (`/runners` with `apiBase` `/api/runners`, or a project's):
 * the list page, the new/edit dialog through the shared form loop, active switch, clear cache
 * and delete. A created runner's token and private key come back in this response only.
 */
export async function runRunnersScreen(astro: AstroLike, opts: { apiBase: string; self: string; tagRequired: boolean; t: (key: string, vars?: Record<string, unknown>) => string }): Promise<RunnersScreen> {
  const { apiBase, self, t } = opts;
  const pageParam = Number(astro.url.searchParams.get('page') ?? '1');
  const page = Number.isInteger(pageParam) && pageParam > 0 ? pageParam : 1;
  const list = await apiGetPage<Runner>(astro, `${apiBase}?offset=${(page - 1) * PAGE_SIZE}&limit=${PAGE_SIZE}`);
  const byId = (id: number) => list.items.find((r) => r.id === id) ?? null;
  const editId = Number(astro.url.searchParams.get('edit') ?? '0');
  const editing = editId ? byId(editId) : null;
  const base: Omit<RunnersScreen, 'form'> = {
    runners: list.items, total: list.total, page, pages: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
    editing, dialogOpen: astro.url.searchParams.get('dialog') === 'new' || editing !== null,
    deleting: byId(Number(astro.url.searchParams.get('delete') ?? '0')), created: null, registration: null,
  };

  const deleted = await runDelete(astro, { path: (id) => (byId(id) ? `${apiBase}/${id}` : null), done: self, flash: 'runner_deleted', name: (id) => byId(id)?.name ?? '' });
  if (deleted) return { ...base, redirect: deleted, form: idle() };

  const toggle = await runForm(astro, {
    name: 'toggle', initial: { id: 0, active: false },
    read: (f) => ({ id: Number(textField(f, 'id')) || 0, active: textField(f, 'active') === '1' }),
    toBody: (v) => ({ active: v.active }),
    schema: runnerActiveSchema,
    call: () => ({ method: 'POST', path: `${apiBase}/${toggleId(astro)}/active` }),
    done: () => ({ path: withPage(self, page), flash: 'runner_saved', name: byId(toggleId(astro))?.name ?? '' }),
  });
  if (toggle.redirect) return { ...base, redirect: toggle.redirect, form: idle() };

  const cache = await runForm(astro, {
    name: 'cache', initial: {}, read: () => ({}), toBody: () => ({}), schema: z.strictObject({}),
    call: () => ({ method: 'DELETE', path: `${apiBase}/${toggleId(astro)}/cache` }),
    done: () => ({ path: withPage(self, page), flash: 'runner_cache_cleared', name: byId(toggleId(astro))?.name ?? '' }),
  });
  if (cache.redirect) return { ...base, redirect: cache.redirect, form: idle() };

  // a registration token is shown once, in this answer: the page renders instead of redirecting
  const registration = await runForm(astro, {
    name: 'registration', initial: {}, read: () => ({}), toBody: () => ({}), schema: z.strictObject({}),
    call: () => ({ method: 'POST', path: `${apiBase}/${toggleId(astro)}/registration-token` }),
    show: async (res: Response) => ({ name: byId(toggleId(astro))?.name ?? '', token: ((await res.json()) as { registration_token: string }).registration_token }),
    done: () => ({ path: withPage(self, page) }),
  });
  if (registration.shown) return { ...base, form: idle(), registration: registration.shown as RunnerRegistration };
  if (registration.error) return { ...base, redirect: astro.redirect(flashPath(withPage(self, page), 'action_failed', registration.error), 303), form: idle() };

  const initial: RunnerValues = editing
    ? { name: editing.name, tag: editing.tags.join(', '), webhook: editing.webhook, max_parallel_tasks: String(editing.max_parallel_tasks), active: editing.active, is_default: editing.is_default, register_later: false }
    : EMPTY;
  const form = await runForm(astro, {
    name: 'runner', initial, schema: runnerInputSchema,
    read: (f) => ({
      name: textField(f, 'name'), tag: textField(f, 'tag'), webhook: textField(f, 'webhook'), max_parallel_tasks: textField(f, 'max_parallel_tasks') || '0',
      active: checkboxField(f, 'active'), is_default: checkboxField(f, 'is_default'), register_later: checkboxField(f, 'register_later'),
    }),
    toBody: (v) => ({
      name: v.name, tags: splitTags(v.tag), webhook: v.webhook, active: v.active, is_default: v.is_default,
      ...(!editing && v.register_later ? { registered: false } : {}),
      max_parallel_tasks: /^\d{1,10}$/.test(v.max_parallel_tasks) ? Number(v.max_parallel_tasks) : -1,
    }),
    messages: { name: t('runners.nameRequired'), max_parallel_tasks: t('runners.maxParallelInvalid'), webhook: t('runners.webhookInvalid') },
    checkValues: (v): Record<string, string> => ({
      ...(v.name.trim() ? {} : { name: t('runners.nameRequired') }),
      // a project runner without a tag would take nothing, unless it is the default runner
      ...(opts.tagRequired && !v.tag.trim() && !v.is_default ? { tag: t('runners.tagRequired') } : {}),
    }),
    call: () => (editing ? { method: 'PUT', path: `${apiBase}/${editing.id}` } : { method: 'POST', path: apiBase }),
    ...(editing ? {} : { show: async (res: Response) => (await res.json()) as CreatedRunner }),
    done: (_res, body) => ({ path: withPage(self, page), flash: 'runner_saved', name: body.name }),
  });
  if (form.redirect) return { ...base, redirect: form.redirect, form };
  const created = (form.shown as CreatedRunner | undefined) ?? null;
  if (created) {
    // a runner to register later comes with its registration token instead of credentials
    const token = created.registered ? null : await newRegistrationToken(astro, `${apiBase}/${created.id}`);
    const again = await apiGetPage<Runner>(astro, `${apiBase}?offset=${(page - 1) * PAGE_SIZE}&limit=${PAGE_SIZE}`);
    return {
      ...base, runners: again.items, total: again.total, pages: Math.max(1, Math.ceil(again.total / PAGE_SIZE)), form, dialogOpen: false,
      created: token === null ? created : null, registration: token === null ? null : { name: created.name, token },
    };
  }
  return { ...base, form, dialogOpen: base.dialogOpen || (form.submitted && !form.redirect) };
}

/** A one-time registration token of the runner at `path`; null when the API refuses. */
async function newRegistrationToken(astro: AstroLike, path: string): Promise<string | null> {
  const res = await apiSend(astro, 'POST', `${path}/registration-token`);
  return res.ok ? ((await res.json()) as { registration_token: string }).registration_token : null;
}

/**
 * How the runner's machine runs the CLI: inside a Signalbox checkout, where `npm start` (or
 * `npm ci`) installed it; the npm script brings Node 24 when the system's is older. Nothing is
 * put on the PATH, so a bare `signalbox` would not be found there.
 */
const RUNNER_CLI = 'npm run --silent cli --';
const IN_CHECKOUT = "# in a Signalbox checkout on the runner's machine (after npm start there)";

/** The commands that register an unregistered runner with its one-time token, then start it. */
export function registerCommand(webHost: string, token: string): string {
  return [
    IN_CHECKOUT, `export SEMAPHORE_RUNNER_API_URL=${webHost}`,
    `SEMAPHORE_RUNNER_REGISTRATION_TOKEN=${token} ${RUNNER_CLI} runner register`, `${RUNNER_CLI} runner start`,
  ].join('\n');
}

/** The tags field: several tags separated by commas. */
export function splitTags(text: string): string[] {
  return [...new Set(text.split(',').map((tag) => tag.trim()).filter(Boolean))];
}

function idle(): FormOutcome<RunnerValues> {
  return { values: EMPTY, fieldErrors: {}, error: '', submitted: false };
}

/** The runner id a toggle/cache form posted (read once per request by the form loop's cache). */
function toggleId(astro: AstroLike): number {
  return routeId(new URL(astro.request.url).searchParams.get('runner') ?? undefined) ?? 0;
}

function withPage(path: string, page: number): string {
  return page > 1 ? `${path}?page=${page}` : path;
}

/** Seed 001: grey when never seen or over an hour ago, green under 5 minutes, warning under an hour. */
export function activityLevel(touched: string | null, now = Date.now()): 'grey' | 'green' | 'warning' {
  if (!touched) return 'grey';
  const age = now - Date.parse(touched);
  if (age < 5 * 60_000) return 'green';
  if (age < 60 * 60_000) return 'warning';
  return 'grey';
}

/**
 * The commands that start a runner created in the console, with its one-time secrets: the
 * private key goes to a file only its owner reads (outside the checkout, so npm's change of
 * directory does not matter), then the runner starts.
 */
export function registrationCommand(webHost: string, created: CreatedRunner): string {
  const keyFile = `"$HOME/.signalbox/runner-${created.id}.key"`;
  return [
    IN_CHECKOUT,
    'mkdir -p -m 700 "$HOME/.signalbox"',
    `cat > ${keyFile} <<'KEY'`,
    (created.private_key ?? '').trim(),
    'KEY',
    `chmod 600 ${keyFile}`,
    `SEMAPHORE_RUNNER_API_URL=${webHost} SEMAPHORE_RUNNER_TOKEN=${created.token ?? ''} SEMAPHORE_RUNNER_PRIVATE_KEY_FILE=${keyFile} ${RUNNER_CLI} runner start`,
  ].join('\n');
}
