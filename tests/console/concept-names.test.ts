import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/console/languages.ts';

/** One name per concept: a field's error names the field as its label does, a button opens the dialog it names. */
const read = (lang: string) => JSON.parse(readFileSync(new URL(`../../locales/${lang}/translation.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
const lookUp = (messages: Record<string, unknown>, key: string) => String(key.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], messages));
/** A label as an error repeats it: lower case, without a hint in brackets ("(optional)") or a trailing colon. */
const asNamed = (label: string) => label.replace(/\s*[(（][^)）]*[)）]\s*$/u, '').replace(/[:：]$/u, '').trim().toLocaleLowerCase();

/** [the field's label, the error shown under it when it is empty] */
const LABEL_AND_ERROR: [string, string][] = [
  ['project.name', 'project.nameRequired'],
  ['templateForm.name', 'templateForm.name_required'],
  ['templateForm.playbook_ansible', 'templateForm.playbook_filename_required'],
  ['templateForm.playbook_script', 'templateForm.script_filename_required'],
  ['templateForm.inventory', 'templateForm.inventory_required'],
  ['templateForm.repository', 'templateForm.repository_required'],
  ['templateForm.environment', 'templateForm.environment_required'],
  ['templateForm.start_version', 'templateForm.start_version_required'],
  ['templateForm.build_template', 'templateForm.build_template_required'],
  ['integrations.name', 'integrations.nameRequired'],
  ['integrations.template', 'integrations.templateRequired'],
  ['integrations.authHeader', 'integrations.headerRequired'],
  ['integrations.authSecret', 'integrations.secretRequired'],
  ['integrations.matchSource', 'integrations.matchSourceRequired'],
  ['integrations.bodyDataFormat', 'integrations.bodyDataFormatRequired'],
  ['integrations.key', 'integrations.keyRequired'],
  ['integrations.comparisonMethod', 'integrations.comparisonMethodRequired'],
  ['integrations.value', 'integrations.valueRequired'],
  ['integrations.valueSource', 'integrations.valueSourceRequired'],
  ['integrations.bodyDataType', 'integrations.bodyDataTypeRequired'],
  ['integrations.variableType', 'integrations.variableTypeRequired'],
  ['integrations.variable', 'integrations.variableRequired'],
  ['schedules.name', 'schedules.nameRequired'],
  ['schedules.template', 'schedules.templateRequired'],
  ['schedules.cron', 'schedules.cronRequired'],
  ['schedules.repository', 'schedules.repositoryRequired'],
  ['runners.name', 'runners.nameRequired'],
  ['runners.tag', 'runners.tagRequired'],
  ['apps.id', 'apps.idRequired'],
  ['launch.buildVersion', 'launch.buildVersionRequired'],
  ['resources.branch', 'resources.branch_required'],
  ['resources.privateKey', 'resources.private_key_required'],
  ['resources.password', 'resources.password_required'],
  ['resources.userCredentials', 'resources.user_credentials_required'],
  ['resources.gitUrl', 'resources.repository_required'],
];

/** Names that must be the same words: a button and the dialog it opens, a menu entry and its page, one field on two screens. */
const SAME_WORDS: [string, string][] = [
  ['environment.new', 'environment.newTitle'],
  ['integrations.new', 'integrations.newTitle'],
  ['runners.new', 'runners.newTitle'],
  ['nav.environment', 'environment.title'],
  ['templateList.environment', 'templateForm.environment'],
];

describe('one name per concept', () => {
  for (const { code } of LANGUAGES) {
    it(`${code}: every field's error names the field by its label`, () => {
      const messages = read(code);
      const mismatched = LABEL_AND_ERROR
        .filter(([label, error]) => !lookUp(messages, error).toLocaleLowerCase().includes(asNamed(lookUp(messages, label))))
        .map(([label, error]) => `${label} "${lookUp(messages, label)}" ≠ ${error} "${lookUp(messages, error)}"`);
      expect(mismatched).toEqual([]);
    });

    it(`${code}: a button names what its dialog's title names, a menu entry what its page's title names`, () => {
      const messages = read(code);
      const differing = SAME_WORDS
        .filter(([a, b]) => lookUp(messages, a) !== lookUp(messages, b))
        .map(([a, b]) => `${a} "${lookUp(messages, a)}" ≠ ${b} "${lookUp(messages, b)}"`);
      expect(differing).toEqual([]);
    });
  }
});
