import type { AstroGlobal } from 'astro';
import { apiSend, readErrorText } from './runner-api.ts';
import { flashPath } from './flash.ts';

/** The settings form as typed: strings and a switch, shown again as they were when refused. */
export interface ProjectSettingsValues { name: string; alert: boolean; alert_chat: string; max_parallel_tasks: string; executor_image: string }

/**
 * Reads the settings form (seed 000 §5) as typed, trimmed.
 * @example const values = readProjectSettings(form);
 */
export function readProjectSettings(form: FormData): ProjectSettingsValues {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  return { name: text('name'), alert: form.get('alert') !== null, alert_chat: text('alert_chat'), max_parallel_tasks: text('max_parallel_tasks'), executor_image: text('executor_image') };
}

/**
 * The API body for typed settings: max parallel tasks empty is 0, a whole number is that number,
 * anything else is passed on as typed so the API's schema refuses it beside its field.
 * @example projectSettingsBody(values, project)
 */
export function projectSettingsBody(values: ProjectSettingsValues, project: { id: number }) {
  const max = values.max_parallel_tasks;
  return {
    id: project.id, type: '' as const, name: values.name, alert: values.alert, alert_chat: values.alert_chat || null,
    max_parallel_tasks: max === '' ? 0 : /^\d+$/.test(max) ? Number(max) : max,
    executor_image: values.executor_image || null,
  };
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
