/**
 * Survey-secret values of queued tasks. They are used for the run and never stored, so they
 * wait here, in memory only, until the task starts (a restart loses them; the task then fails).
 */
const pending = new Map<number, Record<string, string>>();

export function holdTaskSecrets(taskId: number, secrets: Record<string, string>): void {
  if (Object.keys(secrets).length) pending.set(taskId, secrets);
}

export function takeTaskSecrets(taskId: number): Record<string, string> {
  const secrets = pending.get(taskId) ?? {};
  pending.delete(taskId);
  return secrets;
}
