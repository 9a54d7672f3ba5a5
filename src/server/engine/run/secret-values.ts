import type { KeySecret, TaskDetails } from './task-details.ts';

/**
 * Every secret value a run was given, for masking its output: passwords, passphrases and
 * private keys of the keys it uses, variable-group secrets, vault passwords and survey secrets.
 * @example new SecretMask(secretValuesOf(details, surveySecrets))
 */
export function secretValuesOf(details: TaskDetails, surveySecrets: Record<string, string>): string[] {
  const keys = [details.repositoryKey, details.inventoryKey, details.becomeKey, details.inventoryRepositoryKey, ...details.hostKeys.map((h) => h.key), ...details.templateKeys];
  return [
    ...keys.flatMap(keyValues),
    ...Object.values(details.variables.varSecrets),
    ...Object.values(details.variables.envSecrets),
    ...details.vaults.map((v) => v.password),
    ...Object.values(surveySecrets),
    details.jwt ?? '',
  ].filter((v) => typeof v === 'string' && v !== '');
}

function keyValues(key: KeySecret | null): string[] {
  return key ? [key.password, key.passphrase, key.privateKey, key.text] : [];
}
