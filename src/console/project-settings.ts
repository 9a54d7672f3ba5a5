import type { TFunction } from 'i18next';

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
