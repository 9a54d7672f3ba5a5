import type { AstroGlobal } from 'astro';
import type { TFunction } from 'i18next';
import { apiSend, readErrorText } from './runner-api.ts';
import { flashPath } from './flash.ts';

export interface ProjectSettingsInput { name: string; alert: boolean; alert_chat: string | null; max_parallel_tasks: number }

/**
 * Reads and validates the settings form (seed 000 §5): name required; max parallel tasks an
 * integer ≥ 0, empty saved as 0. `values` echo what was typed, for re-rendering with the error.
 * @example const { input, error } = readProjectSettings(form, t);
 */
export function readProjectSettings(form: FormData, t: TFunction) {
  const values = {
    name: String(form.get('name') ?? '').trim(),
    alert: form.get('alert') !== null,
    alert_chat: String(form.get('alert_chat') ?? '').trim(),
    max_parallel_tasks: String(form.get('max_parallel_tasks') ?? '').trim(),
  };
  let error = '';
  if (!values.name) error = t('project.nameRequired');
  else if (values.max_parallel_tasks !== '' && !/^\d+$/.test(values.max_parallel_tasks)) error = t('settings.maxParallelInvalid');
  const input: ProjectSettingsInput = {
    name: values.name, alert: values.alert, alert_chat: values.alert_chat || null,
    max_parallel_tasks: values.max_parallel_tasks === '' ? 0 : Number(values.max_parallel_tasks),
  };
  return { values, input, error };
}

interface ChannelResult { name: string; ok: boolean; error?: string }

/**
 * Sends the project's test alert and answers where to go back with the outcome as a flash: the
 * channels that took it (and any that did not, with why), or the API's reason for sending none.
 * @example return Astro.redirect(await sendTestAlert(Astro, 3, '/project/3/settings'), 303);
 */
export async function sendTestAlert(astro: Pick<AstroGlobal, 'locals' | 'request'>, projectId: number, back: string): Promise<string> {
  const res = await apiSend(astro, 'POST', `/api/project/${projectId}/notifications/test`);
  if (!res.ok) return flashPath(back, 'test_alert_failed', await readErrorText(res));
  const { channels } = (await res.json()) as { channels: ChannelResult[] };
  const took = channels.filter((c) => c.ok).map((c) => c.name);
  const missed = channels.filter((c) => !c.ok).map((c) => `${c.name}: ${c.error ?? '?'}`);
  return flashPath(back, 'test_alert_sent', [took.join(', '), ...(missed.length ? [`(✗ ${missed.join(', ')})`] : [])].join(' '));
}
