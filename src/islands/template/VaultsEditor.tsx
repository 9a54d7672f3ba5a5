import { useState } from 'react';
import { vaultErrors, vaultName, vaultsFromApi, vaultsToApi, type VaultDraft } from '../../console/template-rules.ts';
import { FieldMessage, onEnter, PlainField, useMounted, type Messages } from './editor-kit.tsx';

interface Props { name: string; initial: string; keys: { id: number; name: string }[]; m: Messages }

function parse(text: string): VaultDraft[] | null {
  if (!text.trim()) return [];
  try {
    const raw: unknown = JSON.parse(text);
    return Array.isArray(raw) ? vaultsFromApi(raw) : null;
  } catch {
    return null;
  }
}

/**
 * Ansible vaults of a template (seed 001 §5): names trimmed and lower-cased, unique, one unnamed
 * default; a password vault needs a key, a script vault a `*-client[.ext]` script. Posts as JSON
 * in the hidden `vaults` field.
 */
export default function VaultsEditor({ name, initial, keys, m }: Props) {
  const mounted = useMounted();
  const [vaults, setVaults] = useState<VaultDraft[] | null>(() => parse(initial));
  const [editing, setEditing] = useState<{ index: number | null; draft: VaultDraft; tried: boolean } | null>(null);
  if (!mounted || vaults === null) return <PlainField name={name} value={initial} label={m.vaults} hint={m.json_hint} />;

  const withDraft = editing ? (editing.index === null ? [...vaults, editing.draft] : vaults.map((v, i) => (i === editing.index ? editing.draft : v))) : vaults;
  const draftIndex = editing ? (editing.index ?? vaults.length) : -1;
  const currentErrors = () => (editing ? vaultErrors(withDraft, draftIndex) : {});
  const errors = editing?.tried ? currentErrors() : {};
  const say = (key?: string) => (key ? m[key] : undefined);
  const change = (patch: Partial<VaultDraft>) => setEditing((e) => e && { ...e, draft: { ...e.draft, ...patch } });
  const save = () => {
    if (!editing) return;
    if (Object.keys(currentErrors()).length) { setEditing({ ...editing, tried: true }); return; }
    setVaults(withDraft.map((v, i) => (i === draftIndex ? { ...v, name: vaultName(v.name), script: v.script.trim() } : v)));
    setEditing(null);
  };
  const keyName = (id: number | null) => keys.find((k) => k.id === id)?.name ?? (id ? `#${id}` : '');
  const d = editing?.draft;
  return (
    <div className="tpl-editor" data-editor="vaults">
      <input type="hidden" name={name} value={JSON.stringify(vaultsToApi(vaults))} />
      {vaults.length ? (
        <div className="tpl-editor-scroll">
          <table className="tpl-editor-table">
            <thead><tr><th>{m.vault_name}</th><th>{m.vault_type}</th><th>{m.vault_secret}</th><th><span className="visually-hidden">{m.actions}</span></th></tr></thead>
            <tbody>
              {vaults.map((v, i) => (
                <tr key={i} data-vault={v.name || 'default'}>
                  <td>{v.name || <em>{m.vault_default}</em>}</td>
                  <td>{v.type === 'script' ? m.vault_type_script : m.vault_type_password}</td>
                  <td>{v.type === 'script' ? <code>{v.script}</code> : keyName(v.vault_key_id)}</td>
                  <td className="tpl-row-actions">
                    <button type="button" className="btn btn-outline btn-small" aria-label={m.edit} title={m.edit} onClick={() => setEditing({ index: i, draft: { ...v }, tried: false })}>✎</button>
                    <button type="button" className="btn btn-outline btn-small" aria-label={m.remove} title={m.remove} onClick={() => setVaults(vaults.filter((_, j) => j !== i))}>×</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : <p className="tpl-editor-empty">{m.vaults_empty}</p>}
      {editing && d ? (
        <fieldset className="tpl-editor-panel" onKeyDown={onEnter(save)} aria-label={m.vault_add}>
          <div className="tpl-grid-2">
            <label>{m.vault_name}
              <input value={d.name} onChange={(e) => change({ name: e.target.value })} aria-invalid={errors.name ? true : undefined} aria-describedby="vault-name-error" data-vault-field="name" />
              <FieldMessage id="vault-name-error" text={say(errors.name)} />
            </label>
            <label>{m.vault_type}
              <select value={d.type} onChange={(e) => change({ type: e.target.value as VaultDraft['type'] })} aria-describedby="vault-type-error" data-vault-field="type">
                <option value="">—</option>
                <option value="password">{m.vault_type_password}</option>
                <option value="script">{m.vault_type_script}</option>
              </select>
              <FieldMessage id="vault-type-error" text={say(errors.type)} />
            </label>
          </div>
          {d.type === 'password' && (
            <label>{m.vault_key}
              <select value={d.vault_key_id ?? ''} onChange={(e) => change({ vault_key_id: e.target.value ? Number(e.target.value) : null })}
                aria-invalid={errors.vault_key_id ? true : undefined} aria-describedby="vault-key-error" data-vault-field="key">
                <option value="">—</option>
                {keys.map((k) => <option key={k.id} value={k.id}>{k.name}</option>)}
              </select>
              <FieldMessage id="vault-key-error" text={say(errors.vault_key_id)} />
            </label>
          )}
          {d.type === 'script' && (
            <label>{m.vault_script}
              <input value={d.script} placeholder="vault/secret-client.py" onChange={(e) => change({ script: e.target.value })}
                aria-invalid={errors.script ? true : undefined} aria-describedby="vault-script-error" data-vault-field="script" />
              <FieldMessage id="vault-script-error" text={say(errors.script)} />
            </label>
          )}
          <div className="tpl-panel-actions">
            <button type="button" className="btn btn-outline" onClick={() => setEditing(null)}>{m.cancel}</button>
            <button type="button" className="btn btn-secondary" onClick={save} data-vault-field="save">{editing.index === null ? m.add : m.apply}</button>
          </div>
        </fieldset>
      ) : (
        <button type="button" className="btn btn-outline" onClick={() => setEditing({ index: null, draft: { name: '', type: 'password', vault_key_id: null, script: '' }, tried: false })}>{m.vault_add}</button>
      )}
    </div>
  );
}
