import { describe, expect, it } from 'vitest';
import {
  argError, parseArguments, surveyVarErrors, surveyVarsFromApi, surveyVarsToApi, vaultErrors, vaultsToApi, type SurveyVarDraft, type VaultDraft,
} from '../../src/console/template-rules.ts';

const survey = (patch: Partial<SurveyVarDraft>): SurveyVarDraft => ({
  name: 'color', title: 'Colour', description: '', type: 'string', values: [], default_value: '', required: false, do_not_store: false, target: '', values_url: '', values_url_key_id: null, ...patch,
});
const vault = (patch: Partial<VaultDraft>): VaultDraft => ({ name: '', type: 'password', vault_key_id: 1, script: '', ...patch });

describe('survey variable rules (seed 001 §5)', () => {
  it('needs a name and a title', () => {
    expect(surveyVarErrors(survey({ name: ' ', title: '' }))).toEqual({ name: 'name_required', title: 'title_required' });
  });

  it('needs enum values, named, with unique names', () => {
    expect(surveyVarErrors(survey({ type: 'enum' }))).toEqual({ values: 'enum_no_values' });
    expect(surveyVarErrors(survey({ type: 'enum', values: [{ name: ' ', value: 'x' }] }))).toEqual({ values: 'enum_empty_name' });
    expect(surveyVarErrors(survey({ type: 'enum', values: [{ name: 'a', value: '1' }, { name: 'a ', value: '2' }] }))).toEqual({ values: 'enum_unique_names' });
    expect(surveyVarErrors(survey({ type: 'enum', values: [{ name: 'a', value: '1' }, { name: 'b', value: '2' }] }))).toEqual({});
  });

  it('sends type string as the empty type and reads it back', () => {
    const api = surveyVarsToApi([survey({ required: true })]);
    expect(api[0]).toMatchObject({ name: 'color', type: '', required: true, values: [] });
    expect(surveyVarsFromApi(api)[0]!.type).toBe('string');
  });

  it('keeps "do not store" through the form, sending the flag only when set', () => {
    const api = surveyVarsToApi([survey({ do_not_store: true }), survey({ name: 'size' })]);
    expect(api.map((v) => 'do_not_store' in v ? v.do_not_store : 'absent')).toEqual([true, 'absent']);
    expect(surveyVarsFromApi(api).map((v) => v.do_not_store)).toEqual([true, false]);
  });

  it('keeps an environment-variable target through the form (saving must not move it to the command line)', () => {
    const api = surveyVarsToApi(surveyVarsFromApi([{ name: 'token', title: 'Token', target: 'env' }, { name: 'size', title: 'Size', target: 'nonsense' }]));
    expect(api.map((v) => ('target' in v ? v.target : 'absent'))).toEqual(['env', 'absent']);
  });
});

describe('vault rules (seed 001 §5)', () => {
  it('compares names trimmed and lower-cased; one unnamed default', () => {
    expect(vaultErrors([vault({ name: 'Prod' }), vault({ name: ' prod ' })], 1)).toEqual({ name: 'vault_name_unique' });
    expect(vaultErrors([vault({}), vault({ name: '  ' })], 1)).toEqual({ name: 'vault_name_default' });
    expect(vaultsToApi([vault({ name: ' Prod ' }), vault({})]).map((v) => v.name)).toEqual(['prod', null]);
  });

  it('needs a type, a key for passwords, a *-client[.ext] script for scripts', () => {
    expect(vaultErrors([vault({ type: '' })], 0)).toEqual({ type: 'vault_type_required' });
    expect(vaultErrors([vault({ vault_key_id: null })], 0)).toEqual({ vault_key_id: 'vault_required' });
    expect(vaultErrors([vault({ type: 'script' })], 0)).toEqual({ script: 'vault_script_required' });
    expect(vaultErrors([vault({ type: 'script', script: 'vault/pass.py' })], 0)).toEqual({ script: 'vault_script_client_required' });
    expect(vaultErrors([vault({ type: 'script', script: 'vault/pass-client.py' })], 0)).toEqual({});
    expect(vaultErrors([vault({ type: 'script', script: 'vault/pass-client' })], 0)).toEqual({});
  });
});

describe('args picker', () => {
  it('refuses an empty argument once trimmed', () => {
    expect(argError('   ')).toBe('arg_required');
    expect(argError(' -v ')).toBeNull();
  });

  it('reads a JSON array or one argument per line', () => {
    expect(parseArguments('["-a", "b c"]')).toEqual(['-a', 'b c']);
    expect(parseArguments('-a\nb c\n')).toEqual(['-a', 'b c']);
    expect(parseArguments('')).toEqual([]);
    expect(parseArguments('[1, 2]')).toBeNull();
    expect(parseArguments('[oops')).toBeNull();
  });
});

describe('survey choices from a URL (issue 51)', () => {
  it('an enum with a URL needs no values, and its URL and key travel to the API and back', () => {
    const v = survey({ type: 'enum', values_url: ' https://lists.example.test/regions ', values_url_key_id: 4 });
    expect(surveyVarErrors(v)).toEqual({});
    const [api] = surveyVarsToApi([v]);
    expect(api).toMatchObject({ values_url: 'https://lists.example.test/regions', values_url_key_id: 4 });
    expect(surveyVarsFromApi([api])[0]).toMatchObject({ values_url: 'https://lists.example.test/regions', values_url_key_id: 4 });
    expect(surveyVarsToApi([survey({ values_url: 'https://x.test' })])[0]).not.toHaveProperty('values_url');
  });
});
